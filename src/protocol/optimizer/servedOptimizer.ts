/**
 * Connects to an Optimizer-over-HTTP server: reads its list once, picks one
 * optimizer, has the server check the keyword arguments (its schema and its
 * constructor), and gives the Controller what it needs: the optimizer
 * factory (one session per task), the LLM config that names the server's
 * model (never its key), and the attacker's configuration for the results.
 */
import type { LLMConfig, OptimizerFactory } from '../../core/engine'
import { ProtocolClient, TargetRequestError, redactUrl, type ProtocolClientOptions } from '../protocolClient'
import { KwargsAnswerSchema, OptimizerManifestSchema, type OptimizerManifest, type ServedOptimizer } from './schemas'
import { RemoteOptimizer } from './remoteOptimizer'

export interface ServedOptimizerOptions extends ProtocolClientOptions {
  /** How long opening a session keeps retrying on 503 `capacity`. Default 10 minutes. */
  readonly capacityWaitMs?: number
}

/**
 * Events may wait for an optimizer's LLM calls (PAIR's first RunStart makes one attacker call per stream):
 * a longer default than a target's step.
 */
export const DEFAULT_OPTIMIZER_REQUEST_TIMEOUT_MS = 600_000

/** What a served optimizer's results record of it: where (origin, no credentials), which, and with what. */
export interface ServedOptimizerConfig {
  readonly kind: 'served-optimizer'
  readonly url: string
  readonly name: string
  readonly ref: string
  readonly version: string | null
  readonly kwargs: Readonly<Record<string, unknown>>
  readonly model: string | null
}

export interface ServedOptimizerSource {
  readonly url: string
  readonly manifest: OptimizerManifest
  readonly served: ServedOptimizer
  /** The kwargs every session passes: the given ones (the server adds its own under them). */
  readonly kwargs: Readonly<Record<string, unknown>>
  readonly optimizerFactory: OptimizerFactory
  /** The server's model, for the Controller's usage accounting and the experiment's `model`; null without one. */
  readonly llmConfig: LLMConfig | null
  readonly config: ServedOptimizerConfig
}

/** The server's base URL as results may show it: scheme, host and path, never a user, password, query or fragment. */
export function shownOptimizerUrl(url: string): string {
  try {
    const u = new URL(url)
    u.search = ''
    u.hash = ''
    return redactUrl(u.toString())
  } catch {
    return '(invalid URL)'
  }
}

export class ServedOptimizerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ServedOptimizerError'
  }
}

/** Reads `GET /optimizers`; a server that is not one, or unreachable, fails naming the endpoint. */
export async function readOptimizerManifest(
  url: string,
  options: ServedOptimizerOptions = {},
): Promise<{ client: ProtocolClient; manifest: OptimizerManifest }> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ServedOptimizerError(`optimizer server ${JSON.stringify(url)}: not a valid URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ServedOptimizerError(`optimizer server ${shownOptimizerUrl(url)}: only http and https are supported`)
  }
  const client = new ProtocolClient(url, { requestTimeoutMs: DEFAULT_OPTIMIZER_REQUEST_TIMEOUT_MS, ...options })
  const manifest = await client.call('GET', '/optimizers', undefined, OptimizerManifestSchema)
  return { client, manifest }
}

/**
 * `kwargs` may be worked out from the served optimizer (the run console reads its form against the schema the
 * server publishes); a function that throws stops the connection with its error.
 */
export async function connectServedOptimizer(
  url: string,
  name: string,
  kwargsOf: Readonly<Record<string, unknown>> | ((served: ServedOptimizer) => Readonly<Record<string, unknown>>),
  options: ServedOptimizerOptions = {},
): Promise<ServedOptimizerSource> {
  const { client, manifest } = await readOptimizerManifest(url, options)
  const served = manifest.optimizers.find((o) => o.name === name)
  if (served === undefined) {
    const names = manifest.optimizers.map((o) => o.name).join(', ') || 'none'
    throw new ServedOptimizerError(`${client.endpoint('GET', '/optimizers')}: serves no optimizer named '${name}' (it serves: ${names})`)
  }
  const kwargs = typeof kwargsOf === 'function' ? kwargsOf(served) : kwargsOf
  try {
    await client.call('POST', `/optimizers/${encodeURIComponent(name)}/kwargs`, { kwargs }, KwargsAnswerSchema)
  } catch (e) {
    if (e instanceof TargetRequestError && e.code === 'invalid_kwargs') {
      throw new ServedOptimizerError(`the kwargs of ${name}: ${e.serverMessage ?? e.message}`)
    }
    throw e
  }
  const model = served.llm?.model ?? null
  const optimizerFactory = namedFactory(
    served.name,
    () => new RemoteOptimizer(client, { name, kwargs, capacityWaitMs: options.capacityWaitMs }),
  )
  return {
    url: client.baseUrl,
    manifest,
    served,
    kwargs,
    optimizerFactory,
    llmConfig: model === null ? null : { model, apiBase: null, apiKey: null },
    config: {
      kind: 'served-optimizer',
      url: shownOptimizerUrl(url),
      name,
      ref: served.ref,
      version: served.version,
      kwargs: { ...kwargs },
      model,
    },
  }
}

/** A factory named after the optimizer, so the attacker label defaults to it (as superred's factory `__name__`). */
function namedFactory(name: string, make: () => RemoteOptimizer): OptimizerFactory {
  const factory = () => make()
  Object.defineProperty(factory, 'name', { value: name })
  return factory
}
