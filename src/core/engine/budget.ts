/**
 * The LLM port used by attackers and judges, and its per-task cost cap.
 * Network code lives in an adapter (src/adapters/llm) behind `ChatBackend`;
 * the accounting here is pure, so it runs the same in the page and in Node.
 */
import { EngineRuntimeError } from './errors'
import type { LLMConfig, LLMUsage } from './types'

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'developer'
  readonly content: string
}

export interface CompletionOptions {
  readonly temperature?: number
  readonly topP?: number
  readonly maxTokens?: number
  readonly stop?: string | readonly string[]
  /** Ask for JSON matching this schema (OpenAI's structured outputs); a server that cannot constrain is asked in words only. */
  readonly jsonSchema?: JsonSchemaFormat
  readonly signal?: AbortSignal
}

/** A named JSON Schema in the subset strict structured outputs accept: every property required, no others allowed. */
export interface JsonSchemaFormat {
  readonly name: string
  readonly schema: Readonly<Record<string, unknown>>
}

export interface TokenCounts {
  readonly promptTokens: number
  readonly completionTokens: number
}

/** One answered call: the text, its tokens and what it cost by the price table. */
export interface Completion {
  readonly content: string | null
  readonly model: string
  readonly usage: TokenCounts
  readonly costUsd: number
}

/** What an optimizer or judge gets: model and credentials are locked; only messages and sampling vary. */
export interface LLMClient {
  complete(messages: readonly ChatMessage[], options?: CompletionOptions): Promise<Completion>
  /** Cumulative usage of calls that have completed. */
  readonly usage: LLMUsage
  /** Null means unlimited. */
  readonly costCapUsd: number | null
}

/** The cap is reached: raised before a call that would start at or over it. */
export class BudgetExhaustedError extends Error {
  readonly usage: LLMUsage
  constructor(message: string, usage: LLMUsage) {
    super(message)
    this.name = 'BudgetExhaustedError'
    this.usage = usage
  }
}

/** What an adapter returns for one chat call; usage null when the provider sent none. */
export interface ChatResult {
  readonly content: string | null
  readonly model: string
  readonly usage: TokenCounts | null
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[]
  readonly temperature?: number
  readonly topP?: number
  readonly maxTokens?: number
  readonly stop?: string | readonly string[]
  readonly jsonSchema?: JsonSchemaFormat
}

/** The network half of an LLM client (implemented in src/adapters/llm, e.g. over the openai SDK). */
export interface ChatBackend {
  chat(model: string, request: ChatRequest, signal?: AbortSignal): Promise<ChatResult>
  /** Where calls go (`POST https://…/chat/completions`), named in errors; never holds a credential. */
  readonly endpoint?: string
}

/** USD per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number
  readonly outputPerMillion: number
}

/** Editable: users add their own models; lookup is exact, then the longest prefix. */
export type PriceTable = Readonly<Record<string, ModelPrice>>

/** Indicative list prices (USD / 1M tokens); a run's cost is only as right as this table. */
export const DEFAULT_PRICE_TABLE: PriceTable = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
}

export function priceFor(table: PriceTable, model: string): ModelPrice | null {
  const exact = table[model]
  if (exact) return exact
  let best: string | null = null
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && (best === null || key.length > best.length)) best = key
  }
  return best === null ? null : table[best]
}

export function costOf(price: ModelPrice, tokens: TokenCounts): number {
  return (tokens.promptTokens * price.inputPerMillion + tokens.completionTokens * price.outputPerMillion) / 1e6
}

export interface CostCappedClientOptions {
  readonly model: string
  readonly backend: ChatBackend
  /** Null: unlimited. */
  readonly costCapUsd: number | null
  readonly priceTable?: PriceTable
  /** Aborts every call in flight (the task's signal). */
  readonly signal?: AbortSignal
  /**
   * Completion tokens reserved for a call that sets no `maxTokens`: the
   * worst case we budget for while it is in flight. Default 4096.
   */
  readonly reserveCompletionTokens?: number
  /**
   * "reference" (default): a call may start while spent + reserved is below
   * the cap, so one call can overshoot by its own cost, as in superred.
   * "strict": it may start only if its own reservation fits too, so the cap is
   * never passed as long as the estimates hold.
   */
  readonly capMode?: 'reference' | 'strict'
}

/** A deliberately high estimate of prompt tokens (3 characters a token, plus per-message overhead). */
function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0
  for (const m of messages) chars += m.content.length + 16
  return Math.ceil(chars / 3)
}

/**
 * An LLMClient with the reference's pre-call cap, made safe under concurrency:
 * each call in flight reserves its worst-case cost, and a call may start only
 * while spent + reserved is below the cap. So N parallel calls cannot all pass
 * the check on the same stale total, which a plain `cost >= cap` test allows.
 */
export class CostCappedLLMClient implements LLMClient {
  readonly costCapUsd: number | null
  private readonly options: CostCappedClientOptions
  private readonly prices: PriceTable
  private calls = 0
  private cost = 0
  /** Calls with no price (they add 0 to `cost`) and their tokens, so the usage says so rather than $0. */
  private unpricedCalls = 0
  private unpricedPrompt = 0
  private unpricedCompletion = 0
  private reserved = 0
  private inFlight = 0

  constructor(options: CostCappedClientOptions) {
    this.options = options
    this.costCapUsd = options.costCapUsd
    this.prices = options.priceTable ?? DEFAULT_PRICE_TABLE
  }

  get usage(): LLMUsage {
    if (this.unpricedCalls === 0) return { calls: this.calls, cost: this.cost }
    return {
      calls: this.calls,
      cost: this.cost,
      unpriced: { calls: this.unpricedCalls, promptTokens: this.unpricedPrompt, completionTokens: this.unpricedCompletion },
    }
  }

  /** Calls started and not yet answered. */
  get callsInFlight(): number {
    return this.inFlight
  }

  async complete(messages: readonly ChatMessage[], options: CompletionOptions = {}): Promise<Completion> {
    const model = this.options.model
    const request = samplingFor(model, messages, options)
    const price = priceFor(this.prices, model)
    let reservation = 0
    if (this.costCapUsd !== null) {
      const committed = this.cost + this.reserved
      if (committed >= this.costCapUsd) {
        throw new BudgetExhaustedError(`Cost cap reached: $${committed.toFixed(6)}/$${this.costCapUsd.toFixed(6)}`, this.usage)
      }
      if (price === null) {
        throw new Error(`No price for model "${model}": it is unpriced, so the cost cap cannot be enforced (give its price per 1M tokens)`)
      }
      reservation = costOf(price, {
        promptTokens: estimatePromptTokens(messages),
        completionTokens: options.maxTokens ?? this.options.reserveCompletionTokens ?? 4096,
      })
      if (this.options.capMode === 'strict' && committed + reservation > this.costCapUsd) {
        throw new BudgetExhaustedError(
          `Cost cap would be passed: $${committed.toFixed(6)} + up to $${reservation.toFixed(6)} ` + `> $${this.costCapUsd.toFixed(6)}`,
          this.usage,
        )
      }
    }
    // Reserved synchronously, before the first await, so concurrent callers see it.
    this.reserved += reservation
    this.inFlight += 1
    try {
      const signal = anySignal([this.options.signal, options.signal])
      const result = await this.options.backend.chat(model, request, signal)
      if (result.usage === null) {
        throw new EngineRuntimeError(
          `LLM response missing usage data (model=${model}). ` +
            `Budget tracking requires usage reporting from the provider.${this.options.backend.endpoint ? ` (${this.options.backend.endpoint})` : ''}`,
        )
      }
      const callCost = price === null ? 0 : costOf(price, result.usage)
      this.calls += 1
      this.cost += callCost
      if (price === null) {
        this.unpricedCalls += 1
        this.unpricedPrompt += result.usage.promptTokens
        this.unpricedCompletion += result.usage.completionTokens
      }
      return { content: result.content, model: result.model, usage: result.usage, costUsd: callCost }
    } finally {
      this.reserved -= reservation
      this.inFlight -= 1
    }
  }
}

/**
 * The reference's parameter rules: sampling only (model, base and key are
 * locked by construction), `temperature` dropped for gpt-5 models and for
 * anthropic models when top_p is also given.
 */
export function samplingFor(model: string, messages: readonly ChatMessage[], options: CompletionOptions): ChatRequest {
  const lower = model.toLowerCase()
  let temperature = options.temperature
  if (temperature !== undefined && options.topP !== undefined && lower.includes('anthropic')) temperature = undefined
  if (temperature !== undefined && lower.includes('gpt-5')) temperature = undefined
  return {
    messages,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(options.topP !== undefined ? { topP: options.topP } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.stop !== undefined ? { stop: options.stop } : {}),
    ...(options.jsonSchema !== undefined ? { jsonSchema: options.jsonSchema } : {}),
  }
}

function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined)
  if (present.length <= 1) return present[0]
  return AbortSignal.any(present)
}

/** For optimizers without an LLM: a cap of 0, so any call raises BudgetExhaustedError. */
export function noopLLMClient(): LLMClient {
  return new CostCappedLLMClient({
    model: 'noop',
    costCapUsd: 0,
    backend: { chat: () => Promise.reject(new Error('noop client never calls')) },
  })
}

/** Builds the per-task client the Controller hands to a fresh optimizer. */
export type LLMClientFactory = (config: LLMConfig, costCapUsd: number | null, signal: AbortSignal) => LLMClient
