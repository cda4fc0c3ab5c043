/**
 * Chat calls over the openai SDK with a fetch of our choosing (the browser's
 * explaining fetch), and the per-task LLM client factory the run console
 * hands the Controller. Like src/adapters/llm/openaiClient.ts, plus the
 * fetch: a refused origin then reads as advice, not "Connection error.".
 */
import OpenAI from 'openai'
import {
  CostCappedLLMClient, type ChatBackend, type ChatRequest, type ChatResult, type LLMClientFactory, type PriceTable,
} from '../../core/engine'
import { chatEndpoint, explainLlmError, type CallContext } from '../llm/llmErrors'

export interface ChatBackendOptions {
  readonly baseURL?: string | null
  /** Kept in memory only. */
  readonly apiKey?: string | null
  readonly fetch?: typeof fetch
  readonly maxRetries?: number
  readonly timeoutMs?: number
}

const usesCompletionTokens = (model: string) => /^(o\d|gpt-5)/.test(model)

export class FetchChatBackend implements ChatBackend {
  private readonly client: OpenAI
  private readonly call: CallContext
  readonly endpoint: string

  constructor(options: ChatBackendOptions = {}) {
    this.client = new OpenAI({
      baseURL: options.baseURL || undefined,
      apiKey: options.apiKey || 'no-key',
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeoutMs ?? 600_000,
      fetch: options.fetch,
      // The user's own key, typed into this session, calling the endpoint they chose.
      dangerouslyAllowBrowser: true,
    })
    this.endpoint = chatEndpoint(this.client.baseURL)
    this.call = { endpoint: this.endpoint, apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? 600_000, maxRetries: options.maxRetries ?? 2 }
  }

  async chat(model: string, request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const limit = request.maxTokens === undefined ? {}
      : usesCompletionTokens(model) ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }
    let completion
    try {
      completion = await this.client.chat.completions.create({
        model,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.topP !== undefined ? { top_p: request.topP } : {}),
        ...(request.stop !== undefined ? { stop: typeof request.stop === 'string' ? request.stop : [...request.stop] } : {}),
        ...limit,
      }, { signal })
    } catch (e) {
      // The SDK says "Connection error." and keeps the reason (the explaining fetch's words) in `cause`:
      // the error names the endpoint and that reason, and never the key, even if the endpoint echoed it.
      throw explainLlmError(e, this.call)
    }
    const usage = completion.usage
    return {
      content: completion.choices[0]?.message?.content ?? null,
      model: completion.model,
      usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
    }
  }
}

/** One capped client per task, locked to the config's model, base URL and key. */
export function fetchLlmClientFactory(options: { fetch?: typeof fetch; priceTable?: PriceTable } = {}): LLMClientFactory {
  return (config, costCapUsd, signal) => new CostCappedLLMClient({
    model: config.model,
    costCapUsd,
    signal,
    priceTable: options.priceTable,
    backend: new FetchChatBackend({ baseURL: config.apiBase, apiKey: config.apiKey, fetch: options.fetch }),
  })
}
