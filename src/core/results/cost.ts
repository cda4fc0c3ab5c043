/**
 * A recorded cost in words. superred's `cost` is the priced calls' dollars; calls with no known price add 0 to
 * it, so a cost is only whole when no call was unpriced (unpriced.json / run_records.json, redscope extras).
 * Every view says "unpriced" for those calls, never a $0.0000 that reads as measured, and a total over priced and
 * unpriced tasks says both ("$0.0123 + unpriced …"), never a sum that pretends to be whole.
 */
import type { LLMUsage, UnpricedUsage } from '../engine/types'
import type { UnpricedJson } from './format'

export const NO_UNPRICED: UnpricedJson = Object.freeze({ calls: 0, prompt_tokens: 0, completion_tokens: 0 })

/** Two unpriced records summed; null when neither holds a call. */
export function addUnpriced(a: UnpricedJson | null | undefined, b: UnpricedJson | null | undefined): UnpricedJson | null {
  const x = a ?? NO_UNPRICED
  const y = b ?? NO_UNPRICED
  const sum = {
    calls: x.calls + y.calls,
    prompt_tokens: x.prompt_tokens + y.prompt_tokens,
    completion_tokens: x.completion_tokens + y.completion_tokens,
  }
  return sum.calls === 0 ? null : sum
}

export function sumUnpriced(records: Iterable<UnpricedJson | null | undefined>): UnpricedJson | null {
  let sum: UnpricedJson | null = null
  for (const r of records) sum = addUnpriced(sum, r)
  return sum
}

/** The engine's unpriced usage as the files write it (null when every call was priced). */
export function unpricedJsonOf(usage: LLMUsage | UnpricedUsage | undefined | null): UnpricedJson | null {
  if (usage === undefined || usage === null) return null
  const u = 'cost' in usage ? usage.unpriced : usage
  if (u === undefined || u.calls === 0) return null
  return { calls: u.calls, prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens }
}

/** The files' unpriced record back as the engine's (undefined when none). */
export function unpricedUsageOf(json: UnpricedJson | null | undefined): UnpricedUsage | undefined {
  if (json === undefined || json === null || json.calls === 0) return undefined
  return { calls: json.calls, promptTokens: json.prompt_tokens, completionTokens: json.completion_tokens }
}

const count = (n: number) => n.toLocaleString('en-US')

/** "unpriced (3 calls, 1,234 tokens in, 56 out)". */
export function unpricedWords(u: UnpricedJson): string {
  return `unpriced (${count(u.calls)} call${u.calls === 1 ? '' : 's'}, ${count(u.prompt_tokens)} tokens in, ${count(u.completion_tokens)} out)`
}

export interface CostOptions {
  /** Every call the figure covers: when all were unpriced, the dollars (0) are not shown at all. */
  readonly calls?: number
  /** Digits of the dollars (4, as superred's dashboard). */
  readonly digits?: number
}

/**
 * A cost as every view writes it: "$0.0123" when every call was priced (unchanged), "unpriced (…)" when every
 * call was unpriced, "$0.0123 + unpriced (…)" when both.
 */
export function costWords(usd: number, unpriced: UnpricedJson | null | undefined, options: CostOptions = {}): string {
  const dollars = `$${usd.toFixed(options.digits ?? 4)}`
  if (unpriced === null || unpriced === undefined || unpriced.calls === 0) return dollars
  const allUnpriced = options.calls !== undefined ? unpriced.calls >= options.calls : usd === 0
  return allUnpriced ? unpricedWords(unpriced) : `${dollars} + ${unpricedWords(unpriced)}`
}

/** The engine's usage in words (the CLI's live lines and summary). */
export function usageCostWords(usage: LLMUsage): string {
  return costWords(usage.cost, unpricedJsonOf(usage), { calls: usage.calls })
}

/** A table cell's cost: "$0.0123", "unpriced" or "$0.0123 + unpriced" (costWords, with the calls and tokens, for its title). */
export function costShort(usd: number, unpriced: UnpricedJson | null | undefined, options: CostOptions = {}): string {
  const words = costWords(usd, unpriced, options)
  return words.replace(/unpriced \(.*\)$/, 'unpriced')
}
