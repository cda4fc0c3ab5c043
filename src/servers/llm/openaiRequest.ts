/**
 * The body of `POST /v1/chat/completions`, as OpenAI's API defines it and as
 * far as this server honours it. Fields it cannot honour (tools, n > 1,
 * logprobs, a logit bias) are refused with a message that says
 * so, rather than ignored: an answer must never claim more than was done.
 * Other fields clients send (`user`, `metadata`, `store`...) are accepted and
 * change nothing.
 */
import { z } from 'zod'
import type { EngineMessage, JsonConstraint } from './chatEngine'
import { grammarSchema, unsupportedSchemaPart } from './jsonSchemaSubset'

/** A string, null (an assistant turn that only called tools), or parts, of which only text ones are read (checked below). */
const Content = z.union([z.string(), z.null(), z.array(z.unknown()).max(256)])

const isTextPart = (p: unknown): p is { type: 'text'; text: string } =>
  typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string'

const Message = z
  .object({
    role: z.string(),
    content: Content.optional(),
    name: z.string().optional(),
    tool_calls: z.array(z.unknown()).optional(),
  })
  .loose()
  .superRefine((m, ctx) => {
    if (m.role === 'tool' || m.role === 'function' || (m.tool_calls !== undefined && m.tool_calls.length > 0)) {
      ctx.addIssue({ code: 'custom', message: 'tool and function messages are not supported (this server calls no tools)', path: ['role'] })
    } else if (!['system', 'developer', 'user', 'assistant'].includes(m.role)) {
      ctx.addIssue({ code: 'custom', message: `role '${m.role}' is not one of system, developer, user, assistant`, path: ['role'] })
    }
    if (Array.isArray(m.content)) {
      m.content.forEach((p, i) => {
        if (isTextPart(p)) return
        const type = typeof p === 'object' && p !== null ? (p as { type?: unknown }).type : undefined
        ctx.addIssue({
          code: 'custom',
          path: ['content', i],
          message:
            typeof type === 'string' && type !== 'text'
              ? `content parts of type '${type}' are not supported (this model reads text only)`
              : 'a content part must be {"type": "text", "text": "..."}',
        })
      })
    }
  })

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined)

/** llama.cpp's penalties run 0..1; OpenAI's -2..2 outside that range have no honest equivalent here. */
const Penalty = nullish(z.number().min(0, 'must be between 0 and 1 on this server').max(1, 'must be between 0 and 1 on this server'))

/** Empty values (null, false, [], {}) are what clients send when they mean none. */
const refused = (what: string) =>
  z
    .unknown()
    .superRefine((v, ctx) => {
      const given =
        v !== undefined &&
        v !== null &&
        v !== false &&
        !(Array.isArray(v) && v.length === 0) &&
        !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)
      if (given) ctx.addIssue({ code: 'custom', message: `${what} is not supported by this server` })
    })
    .optional()

/** Text, any JSON object, or JSON matching a schema: the last two are held by a grammar while the model samples. */
const ResponseFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }).loose(),
    z.object({ type: z.literal('json_object') }).loose(),
    z
      .object({
        type: z.literal('json_schema'),
        json_schema: z
          .object({
            name: z.string().max(64),
            schema: z
              .record(z.string(), z.unknown())
              .superRefine((schema, ctx) => {
                const part = unsupportedSchemaPart(schema)
                if (part !== null) ctx.addIssue({ code: 'custom', path: part.path, message: part.problem })
              })
              .optional(),
            strict: nullish(z.boolean()),
            description: nullish(z.string()),
          })
          .loose(),
      })
      .loose(),
  ],
  { error: 'must be {"type": "text"}, {"type": "json_object"} or {"type": "json_schema", "json_schema": {"name": ..., "schema": {...}}}' },
)

export const ChatCompletionRequestSchema = z
  .object({
    model: nullish(z.string().max(256)),
    messages: z.array(Message).min(1, 'at least one message is needed').max(4096),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().gt(0).max(1)),
    max_tokens: nullish(z.number().int().min(1)),
    max_completion_tokens: nullish(z.number().int().min(1)),
    stop: nullish(z.union([z.string().min(1), z.array(z.string().min(1)).max(4)])),
    seed: nullish(z.number().int().refine(Number.isSafeInteger, 'must be a safe integer')),
    stream: nullish(z.boolean()),
    stream_options: nullish(z.object({ include_usage: nullish(z.boolean()) }).loose()),
    n: nullish(z.number().int().min(1).max(1, 'this server answers one choice per request (n = 1)')),
    frequency_penalty: Penalty,
    presence_penalty: Penalty,
    tools: refused('tools'),
    functions: refused('functions'),
    logprobs: refused('logprobs'),
    top_logprobs: refused('top_logprobs'),
    logit_bias: refused('logit_bias'),
    response_format: nullish(ResponseFormat),
  })
  .loose()

export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>

/** OpenAI's `developer` role is a system message to a model that has no such role; text parts are joined. */
export function engineMessages(request: ChatCompletionRequest): EngineMessage[] {
  return request.messages.map((m) => {
    const role = m.role === 'developer' ? 'system' : (m.role as EngineMessage['role'])
    const c = m.content
    const content =
      c === undefined || c === null
        ? ''
        : typeof c === 'string'
          ? c
          : c
              .filter(isTextPart)
              .map((p) => p.text)
              .join('')
    return { role, content }
  })
}

export function stopStrings(request: ChatCompletionRequest): string[] {
  const s = request.stop
  return s === undefined ? [] : typeof s === 'string' ? [s] : s
}

export function jsonConstraint(request: ChatCompletionRequest): JsonConstraint | undefined {
  const f = request.response_format
  if (f === undefined || f.type === 'text') return undefined
  if (f.type === 'json_object' || f.json_schema.schema === undefined) return { kind: 'any' }
  return { kind: 'schema', schema: grammarSchema(f.json_schema.schema) as Record<string, unknown> }
}
