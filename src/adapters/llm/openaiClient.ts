/**
 * The LLM client over the `openai` SDK, for any OpenAI-compatible base URL
 * (OpenAI, vLLM, Ollama, LiteLLM proxies...). The only place that imports
 * `openai`. Usage accounting and the cost cap live in the core client; this
 * file only turns a ChatRequest into an HTTP call and back.
 */
import OpenAI from 'openai'
import { billingPrice, billingTable } from '../../core/engine/pricing'
import {
  CostCappedLLMClient,
  DEFAULT_PRICE_TABLE,
  type ChatBackend,
  type ModelPrice,
  type PriceTable,
  type ChatRequest,
  type ChatResult,
  type CostCappedClientOptions,
  type LLMClientFactory,
} from '../../core/engine/budget'
import type { LLMConfig } from '../../core/engine/types'
import { chatEndpoint, explainLlmError } from './llmErrors'

export { LlmRequestError } from './llmErrors'

export interface OpenAiBackendOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; default: the SDK's (OPENAI_BASE_URL or OpenAI). */
  readonly baseURL?: string | null
  /** Kept in memory only. Local servers often need none. */
  readonly apiKey?: string | null
  readonly maxRetries?: number
  readonly timeoutMs?: number
  /** The page passes a fetch that explains CORS refusals; Node uses the global one. */
  readonly fetch?: typeof fetch
}

/** Reasoning-era models take max_completion_tokens; most compatible servers still read max_tokens. */
const usesCompletionTokens = (model: string) => /^(o\d|gpt-5)/.test(model)

export class OpenAiChatBackend implements ChatBackend {
  private readonly client: OpenAI
  private readonly apiKey: string | null
  private readonly timeoutMs: number
  private readonly maxRetries: number
  readonly endpoint: string
  /** The base URL calls go to, resolved as the SDK resolves it (its default, or OPENAI_BASE_URL in Node). */
  readonly baseURL: string
  /** False once the server refused `response_format` json_schema: later calls ask for JSON in words only. */
  private structuredOutputs = true

  constructor(options: OpenAiBackendOptions = {}) {
    this.apiKey = options.apiKey || null
    this.timeoutMs = options.timeoutMs ?? 600_000
    this.maxRetries = options.maxRetries ?? 2
    this.client = new OpenAI({
      // An empty base URL (a blank form field) means the SDK's default, like none.
      baseURL: options.baseURL || undefined,
      apiKey: options.apiKey || 'no-key',
      maxRetries: this.maxRetries,
      timeout: this.timeoutMs,
      fetch: options.fetch,
      // The page runs attacks too; the key is the user's own, typed into this session.
      dangerouslyAllowBrowser: true,
    })
    this.endpoint = chatEndpoint(this.client.baseURL)
    this.baseURL = this.client.baseURL
  }

  async chat(model: string, request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const limit =
      request.maxTokens === undefined
        ? {}
        : usesCompletionTokens(model)
          ? { max_completion_tokens: request.maxTokens }
          : { max_tokens: request.maxTokens }
    const format =
      request.jsonSchema !== undefined && this.structuredOutputs
        ? {
            type: 'json_schema' as const,
            json_schema: { name: request.jsonSchema.name, schema: { ...request.jsonSchema.schema }, strict: true },
          }
        : null
    let completion
    try {
      completion = await this.client.chat.completions.create(
        {
          model,
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.topP !== undefined ? { top_p: request.topP } : {}),
          ...(request.stop !== undefined ? { stop: typeof request.stop === 'string' ? request.stop : [...request.stop] } : {}),
          ...limit,
          ...(format !== null ? { response_format: format } : {}),
        },
        { signal },
      )
    } catch (e) {
      // Many compatible servers predate structured outputs: the prompt still asks for the JSON, so go on without.
      if (format !== null && e instanceof OpenAI.BadRequestError && /response_format|json_schema|structured/i.test(e.message)) {
        this.structuredOutputs = false
        return this.chat(model, request, signal)
      }
      throw explainLlmError(e, { endpoint: this.endpoint, apiKey: this.apiKey, timeoutMs: this.timeoutMs, maxRetries: this.maxRetries })
    }
    const usage = completion.usage
    return {
      content: completion.choices[0]?.message?.content ?? null,
      model: completion.model,
      usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
    }
  }
}

export type OpenAiClientOptions = Pick<CostCappedClientOptions, 'priceTable' | 'reserveCompletionTokens' | 'capMode'> &
  Pick<OpenAiBackendOptions, 'maxRetries' | 'timeoutMs' | 'fetch'> & {
    /** Prices the user configured, by exact model name (they win over the table, on any endpoint). */
    readonly configured?: PriceTable
  }

/**
 * One capped client per task, locked to the config's model, base URL and key.
 * Billed at the configured price, else the table's only on OpenAI's own
 * endpoint, else unpriced (see core/engine/pricing.ts).
 */
export function openAiClientFactory(options: OpenAiClientOptions = {}): LLMClientFactory {
  return (config: LLMConfig, costCapUsd: number | null, signal: AbortSignal) => {
    const backend = new OpenAiChatBackend({
      baseURL: config.apiBase,
      apiKey: config.apiKey,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    })
    const price = billingPrice(
      config.model,
      backend.baseURL,
      options.priceTable ?? DEFAULT_PRICE_TABLE,
      options.configured?.[config.model] ?? null,
    )
    return new CostCappedLLMClient({
      model: config.model,
      costCapUsd,
      signal,
      priceTable: billingTable(config.model, price),
      reserveCompletionTokens: options.reserveCompletionTokens,
      capMode: options.capMode,
      backend,
    })
  }
}

/** The price the factory above bills this config at (null: unpriced), for what a budget or a summary says. */
export function configPrice(
  config: Pick<LLMConfig, 'model' | 'apiBase'>,
  options: Pick<OpenAiClientOptions, 'priceTable' | 'configured'> = {},
): ModelPrice | null {
  const base = new OpenAiChatBackend({ baseURL: config.apiBase ?? null }).baseURL
  return billingPrice(config.model, base, options.priceTable ?? DEFAULT_PRICE_TABLE, options.configured?.[config.model] ?? null)
}
