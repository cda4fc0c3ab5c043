/**
 * The LLM port used by attackers and judges, and its per-task cost cap.
 * Network code lives in an adapter (src/adapters/llm) behind `ChatBackend`;
 * the accounting here is pure, so it runs the same in the page and in Node.
 */
import type { LLMUsage } from './types'

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'developer'
  readonly content: string
}

export interface CompletionOptions {
  readonly temperature?: number
  readonly topP?: number
  readonly maxTokens?: number
  readonly stop?: string | readonly string[]
  readonly signal?: AbortSignal
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
