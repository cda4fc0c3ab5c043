/**
 * Connects to a target: reads and checks its manifest once, then opens one
 * session per task. The manifest's `concurrency` is the factory's, and a 503
 * `capacity` (another client holds the sessions) is waited out per Retry-After.
 */
import type { TargetFactory } from '../core/engine'
import { HttpTarget } from './httpTarget'
import { ProtocolClient, TargetRequestError, type ProtocolClientOptions } from './protocolClient'
import { RemoteSurfaces } from './remoteSurfaces'
import { ManifestSchema, SessionCreatedSchema, type Manifest } from './schemas'

export interface HttpTargetOptions extends ProtocolClientOptions {
  /** Caps the manifest's concurrency (never raises it). */
  readonly maxConcurrency?: number
  /** How long `create()` keeps retrying on 503 `capacity`. Default 10 minutes. */
  readonly capacityWaitMs?: number
  /**
   * Told before each wait on a 503 `capacity`, so that a caller can say why nothing moves: sessions a killed
   * run left open hold a target's capacity until its idle timeout, and a silent wait looks like a hang.
   */
  readonly onCapacityWait?: (wait: CapacityWait) => void
}

export interface CapacityWait {
  /** The target's own message with its 503 (at most 200 characters). */
  readonly message: string
  /** This wait, then how long this session has waited so far, and the limit, in seconds. */
  readonly waitS: number
  readonly waitedS: number
  readonly limitS: number
}

const DEFAULT_CAPACITY_WAIT_MS = 10 * 60 * 1000
/** A Retry-After beyond this is clamped, so one odd header cannot stall a task for hours. */
const MAX_RETRY_AFTER_S = 60

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class HttpTargetFactory implements TargetFactory {
  readonly manifest: Manifest
  readonly surfaces: RemoteSurfaces
  readonly concurrency: number
  readonly client: ProtocolClient
  private readonly capacityWaitMs: number
  private readonly onCapacityWait: ((wait: CapacityWait) => void) | undefined

  constructor(client: ProtocolClient, manifest: Manifest, options: HttpTargetOptions = {}) {
    this.client = client
    this.manifest = manifest
    this.surfaces = new RemoteSurfaces(manifest)
    this.concurrency = Math.max(1, Math.min(manifest.concurrency, options.maxConcurrency ?? Infinity))
    this.capacityWaitMs = options.capacityWaitMs ?? DEFAULT_CAPACITY_WAIT_MS
    this.onCapacityWait = options.onCapacityWait
  }

  get url(): string {
    return this.client.baseUrl
  }

  /** Opens a session: one fresh target instance on the server. */
  async create(): Promise<HttpTarget> {
    const started = Date.now()
    const deadline = started + this.capacityWaitMs
    for (;;) {
      try {
        const { session_id } = await this.client.call('POST', '/sessions', {}, SessionCreatedSchema)
        return new HttpTarget(this.client, this.surfaces, session_id)
      } catch (e) {
        if (!(e instanceof TargetRequestError) || e.status !== 503) throw e
        const waitMs = Math.min(e.retryAfterSeconds ?? 1, MAX_RETRY_AFTER_S) * 1000
        const limitS = Math.round(this.capacityWaitMs / 100) / 10
        // The target's own words, cut short: they are shown on a terminal, and the target may be hostile.
        const said = (e.serverMessage ?? e.message).slice(0, 200)
        if (Date.now() + waitMs > deadline) {
          throw new TargetRequestError(
            e.endpoint,
            `every session of the target stayed taken (503 capacity) for ${limitS} s, the limit: ` +
              `gave up (another client, or a run that was killed, holds them until the target's idle timeout; the target said: ${JSON.stringify(said)})`,
            { status: 503, code: e.code ?? undefined },
          )
        }
        this.onCapacityWait?.({ message: said, waitS: waitMs / 1000, waitedS: Math.round((Date.now() - started) / 1000), limitS })
        await sleep(waitMs)
      }
    }
  }
}

/** Reads the manifest at `url` and returns a factory for its sessions. Fails with the endpoint named. */
export async function connectHttpTarget(url: string, options: HttpTargetOptions = {}): Promise<HttpTargetFactory> {
  const client = new ProtocolClient(url, options)
  const manifest = await client.call('GET', '/manifest', undefined, ManifestSchema)
  return new HttpTargetFactory(client, manifest, options)
}
