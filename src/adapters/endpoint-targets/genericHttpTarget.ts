/**
 * A Target over any HTTP endpoint, built from a GenericHttpSpec. One run is
 * one request: each controllable field pauses before the call (the attacker
 * may replace its value), the filled request is sent (retrying 429s), each
 * output is read from the JSON answer by JSONPath, paused after the call when
 * it is controllable, and emitted as an observable tagged with its domain.
 */
import { JSONPath } from 'jsonpath-plus'
import {
  controllable,
  observable,
  observableEvent,
  postCallEvent,
  preCallEvent,
  targetFactory,
  type ConfigSpec,
  type Controllable,
  type Emit,
  type Observable,
  type ObservableValue,
  type QuerySpec,
  type SendEvent,
  type Target,
  type TargetFactory,
} from '../../core/engine'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../core/json'
import { buildDomain, type SecurityDomain } from '../../core/tags'
import { DEFAULT_MAX_RESPONSE_BYTES, readCapped, TooLargeError } from '../../protocol/protocolClient'
import { fillHeaderTemplate, fillJsonTemplate, fillUrlTemplate, type GenericHttpSpec } from './genericHttpSpec'
import { fetchWithRetry } from './retryFetch'

export interface GenericHttpOptions {
  /** The value of `spec.authHeader`, when the endpoint needs a key. Never logged or persisted. */
  readonly secret?: string | null
  readonly fetch?: typeof fetch
  readonly requestTimeoutMs?: number
  /** An answer longer than this is refused unread (default 32 MiB, as for protocol targets). */
  readonly maxResponseBytes?: number
}

/** Surfaces shared by every instance, so that scopes match tags by identity. */
export class GenericHttpSurfaces {
  readonly spec: GenericHttpSpec
  readonly domain: SecurityDomain
  readonly fieldControllables: ReadonlyMap<string, Controllable>
  readonly outputControllables: ReadonlyMap<string, Controllable>
  readonly outputObservables: ReadonlyMap<string, Observable>
  readonly configSpecs: readonly ConfigSpec[]
  readonly querySpecs: readonly QuerySpec[]

  constructor(spec: GenericHttpSpec) {
    this.spec = spec
    this.domain = buildDomain(spec.forest)
    const tag = (n: string) => this.domain.get(n) ?? null
    this.fieldControllables = new Map(
      spec.fields
        .filter((f) => f.role === 'controllable')
        .map((f) => [f.name, controllable(f.name, tag(f.securityDomain), { description: f.description })]),
    )
    this.outputControllables = new Map(
      spec.outputs
        .filter((o) => o.controllable)
        .map((o) => [
          o.name,
          controllable(o.name, tag(o.securityDomain), { description: `${o.description} (rewritable after the call)`.trim() }),
        ]),
    )
    this.outputObservables = new Map(
      spec.outputs.map((o) => [o.name, observable(o.name, tag(o.securityDomain), { description: o.description })]),
    )
    this.configSpecs = spec.fields.map((f) => ({ name: f.name, securityDomain: tag(f.securityDomain), description: f.description }))
    this.querySpecs = [
      { name: 'last_reply', description: `the last run's ${spec.outputs[0].name}`, params: [] },
      { name: 'last_response', description: 'the raw body of the last answer', params: [] },
      ...spec.outputs.map((o) => ({ name: o.name, description: `the last run's ${o.name}`, params: [] })),
    ]
  }
}

/** A JSONPath match as text: one match as itself (strings unquoted), several as a JSON array, none as null. */
export function extractText(json: unknown, path: string): string | null {
  const found = JSONPath({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[]
  if (!Array.isArray(found) || found.length === 0) return null
  const value = found.length === 1 ? found[0] : found
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export class GenericHttpTarget implements Target {
  private readonly s: GenericHttpSurfaces
  private readonly options: GenericHttpOptions
  private readonly values: Record<string, string>
  private last: Record<string, string> = {}
  private lastBody = ''

  constructor(surfaces: GenericHttpSurfaces, options: GenericHttpOptions = {}) {
    this.s = surfaces
    this.options = options
    this.values = Object.fromEntries(surfaces.spec.fields.map((f) => [f.name, f.default]))
  }

  get securityDomain() {
    return this.s.domain
  }
  get configSpecs() {
    return this.s.configSpecs
  }
  get querySpecs() {
    return this.s.querySpecs
  }
  getControllables(): readonly Controllable[] {
    return [...this.s.fieldControllables.values(), ...this.s.outputControllables.values()]
  }
  getObservables(): readonly ObservableValue[] {
    return []
  }

  setConfig(name: string, value: string): void {
    if (!(name in this.values))
      throw new Error(`unknown config '${name}' (this endpoint's fields: ${Object.keys(this.values).join(', ') || 'none'})`)
    this.values[name] = value
  }

  query(name: string): string {
    if (name === 'last_reply') return this.last[this.s.spec.outputs[0].name] ?? ''
    if (name === 'last_response') return this.lastBody
    if (name in this.last || this.s.outputObservables.has(name)) return this.last[name] ?? ''
    throw new Error(`unknown query '${name}'`)
  }

  /** The secret cut out of anything the endpoint sends back (an error body may echo the header it got). */
  private mask(text: string): string {
    const secret = this.options.secret
    if (!secret || secret.length < 4) return text
    const bare = secret.replace(/^\S+\s+/, '')
    return [secret, ...(bare.length >= 4 && bare !== secret ? [bare] : [])].reduce((t, s) => t.split(s).join('[redacted]'), text)
  }

  async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void> {
    const spec = this.s.spec
    const values = { ...this.values }
    for (const [name, c] of this.s.fieldControllables) {
      const r = await sendEvent(preCallEvent(c, values[name]))
      if (r.type === 'ControllableInjection') values[name] = r.value
    }
    const url = fillUrlTemplate(spec.url, values)
    const headers: Record<string, string> = {}
    for (const h of spec.headers) headers[h.name] = fillHeaderTemplate(h.value, values)
    if (this.options.secret) headers[spec.authHeader] = this.options.secret
    const body = spec.method === 'GET' || spec.bodyTemplate.trim() === '' ? undefined : fillJsonTemplate(spec.bodyTemplate, values)
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs ?? 120_000)
    const response = await fetchWithRetry(
      url,
      { method: spec.method, headers, body, redirect: 'error' },
      {
        maxRetries: spec.maxRetries,
        maxWaitS: spec.maxRetryWaitS,
        fetch: this.options.fetch,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      },
    )
    const endpoint = `${spec.method} ${url.split('?')[0]}`
    let raw: string
    try {
      raw = await readCapped(response, this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)
    } catch (e) {
      if (e instanceof TooLargeError) throw new Error(`${endpoint}: answered ${response.status} with ${e.message}`)
      throw e
    }
    const text = this.mask(raw)
    this.lastBody = text
    if (!response.ok) throw new Error(`${endpoint}: answered ${response.status} ${preview(text)}`)
    // JSONPath and the results writer walk the answer recursively: refuse what would overflow the stack.
    if (jsonDeeperThan(text))
      throw new Error(
        `${endpoint}: answered ${response.status} with JSON nested deeper than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels (refused unparsed)`,
      )
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new Error(`${endpoint}: answered ${response.status} with a body that is not JSON: ${preview(text)}`)
    }
    const request = body ?? url
    for (const out of spec.outputs) {
      let value = extractText(json, out.path)
      if (value === null) throw new Error(`${endpoint}: output ${out.name}: ${out.path} matched nothing in the answer ${preview(text)}`)
      const c = this.s.outputControllables.get(out.name)
      if (c) {
        const r = await sendEvent(postCallEvent(c, request, value))
        if (r.type === 'ControllableInjection') value = r.value
      }
      this.last[out.name] = value
      emit(observableEvent(this.s.outputObservables.get(out.name)!, value))
    }
  }

  async resetEphemeralState(): Promise<void> {
    this.last = {}
    this.lastBody = ''
  }

  async teardown(): Promise<void> {}
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return JSON.stringify(flat.length > 160 ? `${flat.slice(0, 160)}…` : flat)
}

export function genericHttpTargetFactory(
  spec: GenericHttpSpec,
  options: GenericHttpOptions = {},
  concurrency = 4,
): { factory: TargetFactory; domain: SecurityDomain } {
  const surfaces = new GenericHttpSurfaces(spec)
  return { factory: targetFactory(() => new GenericHttpTarget(surfaces, options), concurrency), domain: surfaces.domain }
}
