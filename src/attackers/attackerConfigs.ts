/**
 * Each attacker's configuration as results record it (src/core/results/attackerConfig.ts): what tells this
 * attacker from another of its kind, with every default resolved, so the CLI and the run console, building the
 * same attacker, record the same JSON (and derive the same label). Never a key or a token.
 */
import { DEFAULT_INJECT_ON, DEFAULT_LLM_ATTACKER } from '../core/defaults'
import { attackerConfig, type AttackerConfig, type JsonValue } from '../core/results'
import { DEFAULT_MAX_TURNS, LLM_ATTACKER_SYSTEM_PROMPT, type LlmAttackerOptions } from './llmOptimizer'
import type { RecordedRun } from './replayOptimizer'
import type { TemplateOptions } from './templateOptimizer'

/** The payload texts in order (their names are the user's labels: renaming one changes no run). */
export function templateAttackerConfig(options: TemplateOptions): AttackerConfig {
  return attackerConfig({ kind: 'template', templates: [...options.templates], inject_on: options.injectOn ?? DEFAULT_INJECT_ON.template })
}

/** OpenAI's own endpoint, what an SDK uses when given none: recorded as none, whichever way it was given. */
const OPENAI_BASE = 'https://api.openai.com/v1'

/** An endpoint as recorded: no credentials, query or fragment, no trailing slash; OpenAI's own as null. */
export function recordedApiBase(url: string | null | undefined): string | null {
  const raw = (url ?? '').trim()
  if (raw === '') return null
  let base: string
  try {
    const u = new URL(raw)
    base = `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    base = raw.split(/[?#]/)[0].replace(/^([a-z]+:\/\/)[^/@]*@/i, '$1')
  }
  base = base.replace(/\/+$/, '')
  return base === OPENAI_BASE ? null : base
}

export interface LlmAttackerSetup extends LlmAttackerOptions {
  readonly model: string
  readonly apiBase: string | null
}

/** The model, where it is served, its prompt and sampling, and which pauses it answers. */
export function llmAttackerConfig(o: LlmAttackerSetup): AttackerConfig {
  return attackerConfig({
    kind: 'llm',
    model: o.model,
    api_base: recordedApiBase(o.apiBase),
    inject_on: o.injectOn ?? DEFAULT_INJECT_ON.llm,
    temperature: o.temperature ?? DEFAULT_LLM_ATTACKER.temperature,
    max_tokens: o.maxTokens ?? DEFAULT_LLM_ATTACKER.maxTokens,
    history_runs: o.historyRuns ?? DEFAULT_LLM_ATTACKER.historyRuns,
    max_turns: o.maxTurns ?? DEFAULT_MAX_TURNS,
    system_prompt: LLM_ATTACKER_SYSTEM_PROMPT,
  })
}

/** Where the replayed run came from, and what it answers (a recorded decline as null). */
export function replayAttackerConfig(run: RecordedRun, source: string): AttackerConfig {
  return attackerConfig({ kind: 'replay', source, answers: run.map((a) => ({ controllable: a.controllable, value: a.value })) })
}

export function humanAttackerConfig(): AttackerConfig {
  return attackerConfig({ kind: 'human' })
}

/** A superred optimizer served over HTTP: where (no credentials), which (name, module:attr, version), its kwargs and model. */
export function servedAttackerConfig(c: {
  readonly url: string
  readonly name: string
  readonly ref: string
  readonly version: string | null
  readonly kwargs: Readonly<Record<string, unknown>>
  readonly model: string | null
}): AttackerConfig {
  return attackerConfig({
    kind: 'served-optimizer',
    url: c.url,
    name: c.name,
    ref: c.ref,
    version: c.version,
    kwargs: c.kwargs as Record<string, JsonValue>,
    model: c.model,
  })
}
