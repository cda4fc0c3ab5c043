/**
 * Chat calls for the page: the openai SDK backend with the browser's
 * explaining fetch, so that a refused origin reads as advice rather than
 * "Connection error.", and the per-task LLM client factory the run console
 * hands the Controller.
 */
import type { LLMClientFactory, PriceTable } from '../../core/engine'
import { OpenAiChatBackend, openAiClientFactory, type OpenAiBackendOptions } from '../llm/openaiClient'

export type ChatBackendOptions = OpenAiBackendOptions

/** The SDK backend, named for where it is used: in the page, over a fetch of the caller's choosing. */
export const FetchChatBackend = OpenAiChatBackend

/** One capped client per task, locked to the config's model, base URL and key; priced as openAiClientFactory prices. */
export function fetchLlmClientFactory(
  options: { fetch?: typeof fetch; priceTable?: PriceTable; configured?: PriceTable } = {},
): LLMClientFactory {
  return openAiClientFactory(options)
}
