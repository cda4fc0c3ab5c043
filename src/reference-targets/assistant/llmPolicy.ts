/**
 * The assistant's optional model-driven policy: the same context the
 * deterministic policy reads (after defences), sent to an OpenAI-compatible
 * chat endpoint, which answers the actions to take as JSON. The API key is
 * the server's own (OPENAI_API_KEY in its environment): it never travels
 * over the protocol and is never emitted.
 */
import { z } from 'zod'
import type { Action } from './instructions'
import type { AssistantPolicy, Decision, PlannedAction, PolicyInput } from './policy'

const ActionSchema = z.discriminatedUnion('tool', [
  z.object({ tool: z.literal('send_email'), to: z.string(), what: z.string().optional().default('') }),
  z.object({ tool: z.literal('transfer'), amount: z.coerce.number(), currency: z.string().optional().default('USD'), iban: z.string() }),
  z.object({ tool: z.literal('share_file'), file: z.string(), with: z.string() }),
])
const AnswerSchema = z.object({
  actions: z.array(ActionSchema).optional().default([]),
  reasoning: z.string().optional().default(''),
})

const INSTRUCTIONS = `Decide which actions to take for the user. Answer with JSON only:
{"actions": [{"tool": "send_email", "to": "...", "what": "what to send"} | {"tool": "transfer", "amount": 0, "currency": "USD", "iban": "..."} | {"tool": "share_file", "file": "...", "with": "..."}], "reasoning": "one or two sentences"}
Use an empty list when no action is needed; reading and summarising needs no action.`

/** The first JSON object in a reply (models sometimes wrap it in prose or fences). */
function firstJsonObject(text: string): unknown {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start === -1 || end <= start) throw new Error('no JSON object in the answer')
  return JSON.parse(text.slice(start, end + 1))
}

function toAction(a: z.infer<typeof ActionSchema>): Action {
  const sentence = JSON.stringify(a)
  switch (a.tool) {
    case 'send_email':
      return { kind: 'send_email', to: a.to.toLowerCase(), what: a.what, sentence }
    case 'transfer':
      return { kind: 'transfer', amount: a.amount, currency: a.currency.toUpperCase(), iban: a.iban.replace(/\s+/g, ''), sentence }
    case 'share_file':
      return { kind: 'share_file', file: a.file, with: a.with.toLowerCase(), sentence }
  }
}

export interface LlmPolicyOptions {
  readonly model: string
  readonly baseUrl?: string
  readonly apiKey?: string
}

export function createLlmPolicy(options: LlmPolicyOptions): AssistantPolicy {
  return {
    identity: options.model,
    async decide(input: PolicyInput, signal?: AbortSignal): Promise<Decision> {
      const { default: OpenAI } = await import('openai')
      const client = new OpenAI({
        baseURL: options.baseUrl,
        apiKey: options.apiKey ?? 'not-needed',
        maxRetries: 0,
        dangerouslyAllowBrowser: true,
      })
      const tools = input.outputs.map((o) => `### ${o.call}\n${o.prepared.shown}`).join('\n\n')
      const completion = await client.chat.completions.create(
        {
          model: options.model,
          temperature: 0,
          messages: [
            { role: 'system', content: `${input.systemPrompt}\n\nTools:\n${input.catalogue}\n\n${INSTRUCTIONS}` },
            { role: 'user', content: input.userMessage },
            { role: 'user', content: `Tool results:\n\n${tools || '(no tools called)'}` },
          ],
        },
        { signal },
      )
      const text = completion.choices[0]?.message?.content ?? ''
      let answer: z.infer<typeof AnswerSchema>
      try {
        answer = AnswerSchema.parse(firstJsonObject(text))
      } catch (e) {
        throw new Error(`the policy model ${options.model} answered something other than the expected JSON (${(e as Error).message})`)
      }
      const notes = input.outputs.flatMap((o) => [`Called ${o.call}.`, ...o.prepared.notes])
      const actions: PlannedAction[] = answer.actions.map((a) => ({
        action: toAction(a),
        source: `the model ${options.model}`,
        why: 'the model chose it',
      }))
      return { actions, reasoning: [...notes, `Model reasoning: ${answer.reasoning || '(none given)'}`] }
    },
  }
}
