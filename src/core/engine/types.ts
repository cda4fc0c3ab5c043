/**
 * The engine's plain data types, ported from superred's dataclasses. Field
 * names are camelCase here; the results format (src/core/results) maps them
 * to the reference's snake_case JSON.
 */
import type { SecurityDomainTag } from '../tags'

/** A surface the attacker may inject into (superred `Controllable`). */
export interface Controllable {
  readonly name: string
  /** Null is accepted here and fails only when an event about it is emitted, as in the reference. */
  readonly securityDomain: SecurityDomainTag | null
  readonly description: string
  readonly valueType: string
}

/** A readable surface (superred `Observable`). */
export interface Observable {
  readonly name: string
  readonly securityDomain: SecurityDomainTag | null
  readonly description: string
  readonly observableType: string
}

/** A static observable with its value (content may be null). */
export interface ObservableValue {
  readonly observable: Observable
  readonly content: unknown
}

export interface ConfigSpec {
  readonly name: string
  readonly securityDomain: SecurityDomainTag | null
  readonly description: string
}

export interface QueryParam {
  readonly name: string
  readonly description: string
}

export interface QuerySpec {
  readonly name: string
  readonly description: string
  readonly params: readonly QueryParam[]
}

export interface Goal {
  readonly description: string
}

export interface Score {
  readonly value: number
  readonly securityDomain: SecurityDomainTag | null
  readonly name: string
}

export interface EvaluationResult {
  readonly success: boolean
  /** Never carries a domain: it is the unscoped signal always given to the optimizer. */
  readonly primaryScore: Score
  readonly subScores: Readonly<Record<string, Score>>
  readonly rationale: string
}

/** Model access for attackers and judges. The key never leaves memory: only `{model}` is persisted. */
export interface LLMConfig {
  readonly model: string
  readonly apiBase?: string | null
  readonly apiKey?: string | null
}

/**
 * Calls billed at no known price (a local model, a model the price table lacks): their cost counts 0 in
 * `LLMUsage.cost`, so a reader must say "unpriced", never a $0 that reads as measured. redscope extra.
 */
export interface UnpricedUsage {
  readonly calls: number
  readonly promptTokens: number
  readonly completionTokens: number
}

/** Cumulative LLM usage: calls made and their cost in USD. */
export interface LLMUsage {
  readonly calls: number
  /** USD of the priced calls only: whole only when `unpriced` is absent. */
  readonly cost: number
  /** The calls among `calls` that had no price; absent when every call was priced. */
  readonly unpriced?: UnpricedUsage
}

export type StopReason = 'success' | 'done' | 'max_runs' | 'budget_exhausted' | 'error' | 'timeout'
export const STOP_REASONS: readonly StopReason[] = ['success', 'done', 'max_runs', 'budget_exhausted', 'error', 'timeout']

export type DeclinedBy = 'scope' | 'optimizer'

/**
 * Whose Controller semantics to follow. 'redscope' (the default) is superred's
 * later development, which ../docs/engine.md describes: a task stops on its first
 * success, stop reasons include success and timeout. 'superred-0.3.0' is the
 * published superred 0.3.0 exactly: no success stop (every run is reset and the
 * optimizer decides), a final reset after the loop, no task time cap.
 */
export type EngineSemantics = 'redscope' | 'superred-0.3.0'
export const ENGINE_SEMANTICS: readonly EngineSemantics[] = ['redscope', 'superred-0.3.0']

// ---------------------------------------------------------------------------
// Constructors with the reference's defaults and validation.

export function controllable(
  name: string,
  securityDomain: SecurityDomainTag | null,
  options: { description?: string; valueType?: string } = {},
): Controllable {
  return Object.freeze({ name, securityDomain, description: options.description ?? '', valueType: options.valueType ?? 'text' })
}

export function observable(
  name: string,
  securityDomain: SecurityDomainTag | null,
  options: { description?: string; observableType?: string } = {},
): Observable {
  return Object.freeze({ name, securityDomain, description: options.description ?? '', observableType: options.observableType ?? 'text' })
}

export function observableValue(obs: Observable, content: unknown = null): ObservableValue {
  return Object.freeze({ observable: obs, content })
}

/** `Score(value, security_domain=None, name="primary")`, positional order as the reference. */
export function score(value: number, securityDomain: SecurityDomainTag | null = null, name = 'primary'): Score {
  return Object.freeze({ value, securityDomain, name })
}

/** Python's repr of a tag dataclass, for the reference's error message. */
export function tagRepr(tag: SecurityDomainTag | null): string {
  if (tag === null) return 'None'
  return `SecurityDomainTag(name='${tag.name}', parent=${tagRepr(tag.parent)})`
}

/** Raised where the reference raises ValueError (bad arguments, bad data). */
export class EngineValueError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ValueError'
  }
}

/**
 * What a check matched to decide a success (a redscope extra): the regex's matches, the judge's quote. The
 * engine compares it with the run's injections (echo.ts): a success whose evidence the attacker injected itself
 * is an echo. Kept beside the EvaluationResult, not in it, so superred's shape, the files and the optimizer's
 * feedback stay as they are (the evidence may quote what the attacker must not see).
 */
export interface Evidence {
  /** Where the check looked, in words: "query last_reply", "observable reply", "the judge's quote". */
  readonly where: string
  /** What it matched: distinct texts, in order of appearance, at most EVIDENCE_MAX. */
  readonly texts: readonly string[]
  /** It matched more distinct texts than `texts` holds (then no echo is established). */
  readonly more: boolean
}

/** Distinct matched texts kept per check: the echo check's work stays linear in the injections. */
export const EVIDENCE_MAX = 16

/** The results `evaluationResult` built: frozen and validated, so `ownedEvaluation` hands them on as they are. */
const built = new WeakSet<EvaluationResult>()
const evidenceByResult = new WeakMap<EvaluationResult, Evidence>()

/** The evidence the check that built this result named, or null (a check that names none, a hand-built result). */
export function evidenceOf(result: EvaluationResult): Evidence | null {
  return evidenceByResult.get(result) ?? null
}

/** Distinct texts in order, at most EVIDENCE_MAX; `more` when there were others. */
export function evidenceFrom(where: string, texts: Iterable<string>): Evidence {
  const kept: string[] = []
  const seen = new Set<string>()
  let more = false
  for (const t of texts) {
    if (seen.has(t)) continue
    if (kept.length === EVIDENCE_MAX) {
      more = true
      break
    }
    seen.add(t)
    kept.push(t)
  }
  return Object.freeze({ where, texts: Object.freeze(kept), more })
}

/** Builds an EvaluationResult, refusing a primary score that carries a domain. */
export function evaluationResult(init: {
  success: boolean
  primaryScore: Score
  subScores?: Readonly<Record<string, Score>>
  rationale?: string
  /** What the check matched (see Evidence); not a field of the result. */
  evidence?: Evidence | null
}): EvaluationResult {
  if (init.primaryScore.securityDomain !== null) {
    throw new EngineValueError(
      `primary_score must not carry a security_domain (got ${tagRepr(init.primaryScore.securityDomain)}). ` +
        'The primary score is the unscoped optimization signal always delivered to the optimizer; attach a ' +
        'security_domain to sub_scores instead.',
    )
  }
  const result: EvaluationResult = Object.freeze({
    success: init.success,
    primaryScore: init.primaryScore,
    subScores: Object.freeze({ ...(init.subScores ?? {}) }),
    rationale: init.rationale ?? '',
  })
  built.add(result)
  if (init.evidence) evidenceByResult.set(result, init.evidence)
  return result
}

/**
 * What an evaluator returned, made the engine's own: one `evaluationResult`
 * built is frozen and validated already and is kept as it is (no copy per
 * run); anything else is rebuilt through it (validated, frozen, defaults).
 */
export function ownedEvaluation(returned: EvaluationResult): EvaluationResult {
  return built.has(returned) ? returned : evaluationResult(returned)
}

export const ZERO_USAGE: LLMUsage = Object.freeze({ calls: 0, cost: 0 })

export function addUsage(a: LLMUsage, b: LLMUsage): LLMUsage {
  return withUnpriced({ calls: a.calls + b.calls, cost: a.cost + b.cost }, combineUnpriced(a.unpriced, b.unpriced, 1))
}

export function subtractUsage(a: LLMUsage, b: LLMUsage): LLMUsage {
  return withUnpriced({ calls: a.calls - b.calls, cost: a.cost - b.cost }, combineUnpriced(a.unpriced, b.unpriced, -1))
}

function combineUnpriced(a: UnpricedUsage | undefined, b: UnpricedUsage | undefined, sign: 1 | -1): UnpricedUsage | undefined {
  if (a === undefined && b === undefined) return undefined
  const z = { calls: 0, promptTokens: 0, completionTokens: 0 }
  const x = a ?? z
  const y = b ?? z
  const out = {
    calls: x.calls + sign * y.calls,
    promptTokens: x.promptTokens + sign * y.promptTokens,
    completionTokens: x.completionTokens + sign * y.completionTokens,
  }
  return out.calls === 0 ? undefined : out
}

/** A usage with its unpriced part, the key left out when there is none (so priced usage prints as before). */
export function withUnpriced(usage: { calls: number; cost: number }, unpriced: UnpricedUsage | undefined | null): LLMUsage {
  return unpriced === undefined || unpriced === null || unpriced.calls === 0 ? usage : { ...usage, unpriced }
}

/** What may be persisted of an LLMConfig: the model name only. */
export function persistableLlmConfig(config: LLMConfig | null): { model: string } | null {
  return config === null ? null : { model: config.model }
}
