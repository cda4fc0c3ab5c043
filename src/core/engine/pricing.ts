/**
 * Which price a model's calls are billed at. The price table lists OpenAI's
 * list prices, so it applies only to OpenAI's own endpoint: a local server
 * that names its model `gpt-4o-mini` costs nothing like OpenAI, and a model
 * with no known price must say "unpriced", never a $0.0000 that reads as
 * free. A price the user configures wins everywhere. A cost cap cannot be
 * enforced on an unpriced model (the client refuses the call).
 */
import { priceFor, type ModelPrice, type PriceTable } from './budget'

/** Hosts whose prices the default table lists. */
const OPENAI_HOSTS = new Set(['api.openai.com'])

/** True for OpenAI's own API; `null` is the SDK's default base, OpenAI. */
export function isOpenAiEndpoint(apiBase: string | null | undefined): boolean {
  if (apiBase === null || apiBase === undefined || apiBase.trim() === '') return true
  try {
    return OPENAI_HOSTS.has(new URL(apiBase).hostname)
  } catch {
    return false
  }
}

/** The price a call is billed at: the configured one, else the table's for OpenAI's endpoint, else none (unpriced). */
export function billingPrice(
  model: string,
  apiBase: string | null | undefined,
  table: PriceTable,
  configured: ModelPrice | null = null,
): ModelPrice | null {
  if (configured !== null) return configured
  return isOpenAiEndpoint(apiBase) ? priceFor(table, model) : null
}

/** The one-row table a capped client bills with (empty: unpriced, every call costs 0 and a cap refuses it). */
export function billingTable(model: string, price: ModelPrice | null): PriceTable {
  return price === null ? {} : { [model]: price }
}

/** What a budget says about an unpriced model, before anything runs. */
export function unpricedCapMessage(model: string, apiBase: string | null | undefined): string {
  const where = isOpenAiEndpoint(apiBase)
    ? 'OpenAI has no price for it in the price table'
    : `its endpoint (${endpointHost(apiBase)}) is not OpenAI's, so OpenAI's prices do not apply`
  return `the model "${model}" is unpriced (${where}), so a cost cap cannot be enforced: give its price per 1M tokens`
}

function endpointHost(apiBase: string | null | undefined): string {
  try {
    return new URL(apiBase ?? '').host
  } catch {
    return String(apiBase)
  }
}
