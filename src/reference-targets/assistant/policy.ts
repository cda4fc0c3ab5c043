/**
 * The assistant's policy: given its context, which actions does it take? The
 * deterministic policy acts on every request it can read in a trusted place:
 * the system prompt, the tool catalogue, the user's message and whatever
 * tool output the defence lets through as "followable". An alternative
 * policy asks a language model (llmPolicy.ts).
 */
import type { PreparedOutput } from './defences'
import { actionsIn, describeAction, type Action } from './instructions'
import type { Store } from './world'

export interface ToolOutput {
  readonly store: Store
  readonly call: string
  readonly prepared: PreparedOutput
}

export interface PolicyInput {
  readonly systemPrompt: string
  readonly catalogue: string
  readonly userMessage: string
  readonly outputs: readonly ToolOutput[]
}

export interface PlannedAction {
  readonly action: Action
  /** Where the request came from, e.g. "the user's message" or "inbox: 'Hi' from x@y". */
  readonly source: string
  readonly why: string
}

export interface Decision {
  readonly actions: readonly PlannedAction[]
  /** The policy's account of itself, line by line. */
  readonly reasoning: readonly string[]
}

export interface AssistantPolicy {
  /** What `model_identity` reports. */
  readonly identity: string
  decide(input: PolicyInput, signal?: AbortSignal): Promise<Decision>
}

export const DETERMINISTIC_IDENTITY = 'redscope deterministic assistant policy v1'

export const deterministicPolicy: AssistantPolicy = {
  identity: DETERMINISTIC_IDENTITY,
  async decide(input) {
    const reasoning: string[] = []
    const actions: PlannedAction[] = []
    const seen = new Set<string>()
    const follow = (text: string, source: string, why: string) => {
      for (const action of actionsIn(text)) {
        const key = JSON.stringify({ ...action, sentence: undefined })
        if (seen.has(key)) continue
        seen.add(key)
        actions.push({ action, source, why })
        reasoning.push(`Will ${describeAction(action)}: requested in ${source} ("${action.sentence}"); ${why}.`)
      }
    }
    follow(input.systemPrompt, 'the system prompt', 'the system prompt is trusted')
    follow(input.catalogue, 'the tool catalogue', 'tool descriptions are part of the trusted system context')
    follow(input.userMessage, "the user's message", 'the user is the principal')
    for (const out of input.outputs) {
      reasoning.push(`Called ${out.call}.`)
      reasoning.push(...out.prepared.notes)
      for (const f of out.prepared.followable) {
        follow(f.text, `${out.store}: '${f.source.title}' from ${f.source.author}`, f.why)
      }
    }
    if (actions.length === 0) reasoning.push('No action requested anywhere I trust: answering the user only.')
    return { actions, reasoning }
  },
}
