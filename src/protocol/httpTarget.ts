/**
 * A Target that lives in another process, driven over the Target-over-HTTP
 * protocol. One HttpTarget = one session; the run executes on the server and
 * each pause is one round trip through `sendEvent`.
 */
import {
  evaluationResult,
  eventIdOf,
  evidenceFrom,
  NotApplicable,
  observableEvent,
  score,
  observableValue,
  postCallEvent,
  preCallEvent,
  type ConfigSpec,
  type Controllable,
  type ControllableEvent,
  type ControllableResponse,
  type Emit,
  type EvaluationResult,
  type ObservableValue,
  type QuerySpec,
  type SendEvent,
  type ServedTaskTarget,
} from '../core/engine'
import type { SecurityDomain } from '../core/tags'
import type { ProtocolClient } from './protocolClient'
import { TargetRequestError } from './protocolClient'
import type { RemoteSurfaces } from './remoteSurfaces'
import { QueryAnswerSchema, RunStepSchema, SessionObservablesSchema, type EvaluationWire, type RunStep, type WireResponse } from './schemas'

/** Teardown's DELETE is best effort and short: the server expires idle sessions anyway. */
const TEARDOWN_TIMEOUT_MS = 5_000

function toWire(response: ControllableResponse): WireResponse {
  return response.type === 'ControllableInjection'
    ? { type: 'ControllableInjection', value: response.value }
    : { type: 'ControllableNoInjection', declined_by: response.declinedBy }
}

/** Every string in a value, keys included, masked (nesting is bounded at the client's edge). */
function maskStrings(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value)
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, mask))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [mask(k), maskStrings(v, mask)]))
  }
  return value
}

/** What the last finished run's step said about its evaluation by the served task. */
type ServedVerdict = { readonly evaluation: EvaluationResult } | { readonly error: string } | null

export class HttpTarget implements ServedTaskTarget {
  readonly sessionId: string
  private readonly client: ProtocolClient
  private readonly surfaces: RemoteSurfaces
  private deleted: Promise<void> | null = null
  /** The session's observables after the last config, when the server tells them (else the manifest's). */
  private observables: readonly ObservableValue[] | null = null
  /** The served task this session was configured with (addition: claims on the server), if any. */
  private servedTask: number | null = null
  private verdict: ServedVerdict = null

  constructor(client: ProtocolClient, surfaces: RemoteSurfaces, sessionId: string) {
    this.client = client
    this.surfaces = surfaces
    this.sessionId = sessionId
    this.path = `/sessions/${encodeURIComponent(sessionId)}`
  }

  get securityDomain(): SecurityDomain {
    return this.surfaces.domain
  }

  get configSpecs(): readonly ConfigSpec[] {
    return this.surfaces.configSpecs
  }

  get querySpecs(): readonly QuerySpec[] {
    return this.surfaces.querySpecs
  }

  getControllables(): readonly Controllable[] {
    return this.surfaces.controllables
  }

  getObservables(): readonly ObservableValue[] {
    return this.observables ?? this.surfaces.observables
  }

  /** The session's path, encoded once: every request of the session starts with it. */
  private readonly path: string

  async setConfig(name: string, value: string): Promise<void> {
    await this.client.call('POST', `${this.path}/config`, { name, value }, null)
    await this.readObservables()
  }

  /** Config may change what a target shows (superred offers observables after configure): read them again. */
  private async readObservables(): Promise<void> {
    try {
      const now = await this.client.call('GET', `${this.path}/observables`, undefined, SessionObservablesSchema)
      this.observables = now.observables.map((o) => observableValue(this.surfaces.observableOf(o), o.content))
    } catch (e) {
      // A server without the addition answers 404 not_found: the manifest's observables stand.
      if (!(e instanceof TargetRequestError && e.status === 404 && e.code === 'not_found')) throw e
    }
  }

  /**
   * Addition: the served claim's task `task` configures this session on the server. A task that does not
   * apply (superred's NotApplicable, answered 422 `not_applicable`) is skipped, as superred skips it.
   */
  async configureServedTask(task: number): Promise<void> {
    try {
      await this.client.call('POST', `${this.path}/task`, { task }, null)
    } catch (e) {
      if (e instanceof TargetRequestError && e.code === 'not_applicable') throw new NotApplicable(e.serverMessage ?? e.message)
      throw e
    }
    this.servedTask = task
    await this.readObservables()
  }

  /** The served task's evaluation of the last finished run, as the server's own code judged it. */
  servedEvaluation(): EvaluationResult {
    if (this.servedTask === null) throw new Error('this session was not configured with a served task')
    const v = this.verdict
    if (v === null) throw new Error(`the server sent no evaluation of the last run by served task ${this.servedTask}`)
    if ('error' in v) throw new Error(`served task ${this.servedTask}'s evaluate raised ${v.error}`)
    return v.evaluation
  }

  private fromWire(e: EvaluationWire): EvaluationResult {
    const tag = (name: string | null) => (name === null ? null : this.surfaces.tag(name))
    const subScores = Object.fromEntries(Object.entries(e.sub_scores).map(([k, s]) => [k, score(s.value, tag(s.security_domain), s.name)]))
    const evidence =
      e.evidence === undefined
        ? null
        : evidenceFrom(`served task ${this.servedTask ?? '?'}`, typeof e.evidence === 'string' ? [e.evidence] : e.evidence)
    return evaluationResult({
      success: e.success,
      primaryScore: score(e.primary_score.value, tag(e.primary_score.security_domain), e.primary_score.name),
      subScores,
      rationale: e.rationale,
      evidence,
    })
  }

  async query(name: string, params: Readonly<Record<string, string>> = {}): Promise<string> {
    return (await this.client.call('POST', `${this.path}/query`, { name, params }, QueryAnswerSchema)).value
  }

  async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason
    // A cancelled run deletes its session at once, even while the optimizer is thinking.
    const onAbort = () => void this.deleteSession()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const start = `${this.path}/runs`
      let endpoint = this.client.endpoint('POST', start)
      this.verdict = null
      let step = await this.client.call('POST', start, {}, RunStepSchema, signal)
      const runId = step.run_id
      const next = `${this.path}/runs/${encodeURIComponent(runId)}/responses`
      const nextEndpoint = this.client.endpoint('POST', next)
      for (;;) {
        this.emitEvents(step, emit, endpoint)
        if (step.status === 'finished') {
          this.keepVerdict(step, endpoint)
          return
        }
        if (step.status === 'failed')
          throw new TargetRequestError(endpoint, `the target's run failed: ${this.client.mask(String(step.error))}`)
        const pause = step.pause
        if (pause === null) throw new TargetRequestError(endpoint, 'a paused run without a pause') // schema forbids; for the type checker
        let event: ControllableEvent
        try {
          const c = this.surfaces.pausedAt(pause.controllable, pause.descriptor)
          const options = { eventId: pause.event_id === undefined ? undefined : eventIdOf(pause.event_id), timestamp: pause.timestamp }
          event =
            pause.type === 'ControllablePreCallEvent'
              ? preCallEvent(c, pause.request, options)
              : postCallEvent(c, pause.request, pause.answer, options)
        } catch (e) {
          throw new TargetRequestError(endpoint, (e as Error).message)
        }
        const response = await sendEvent(event)
        endpoint = nextEndpoint
        step = await this.client.call('POST', next, { call_id: pause.call_id, response: toWire(response) }, RunStepSchema, signal)
        if (step.run_id !== runId)
          throw new TargetRequestError(endpoint, `answered for run '${step.run_id}' while run '${runId}' was in progress`)
      }
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
  }

  private keepVerdict(step: RunStep, endpoint: string): void {
    if (step.evaluation_error !== null) this.verdict = { error: this.client.mask(step.evaluation_error) }
    else if (step.evaluation !== null) {
      try {
        this.verdict = { evaluation: this.fromWire(step.evaluation) }
      } catch (e) {
        throw new TargetRequestError(endpoint, `evaluation: ${(e as Error).message}`)
      }
    }
  }

  /** Emits the step's observations; a descriptor naming an unknown tag is the target's error. */
  private emitEvents(step: RunStep, emit: Emit, endpoint: string): void {
    step.events.forEach((e, i) => {
      let obs
      let override
      try {
        obs = this.surfaces.observableOf(e.observable)
        override = e.security_domain ? this.surfaces.tag(e.security_domain) : undefined
      } catch (error) {
        throw new TargetRequestError(endpoint, `events[${i}] (observable '${e.observable.name}'): ${(error as Error).message}`)
      }
      if (!override && obs.securityDomain === null) {
        throw new TargetRequestError(endpoint, `events[${i}] (observable '${e.observable.name}') has no security domain`)
      }
      emit(
        observableEvent(obs, this.client.masksSecrets ? maskStrings(e.content, (t) => this.client.mask(t)) : e.content, {
          securityDomain: override,
          eventId: e.event_id === undefined ? undefined : eventIdOf(e.event_id),
          timestamp: e.timestamp,
        }),
      )
    })
  }

  async resetEphemeralState(): Promise<void> {
    await this.client.call('POST', `${this.path}/reset`, {}, null)
  }

  /** Deletes the session. Never throws: a dead target must not hide the task's own error. */
  async teardown(): Promise<void> {
    await this.deleteSession()
  }

  private deleteSession(): Promise<void> {
    this.deleted ??= this.client.call('DELETE', this.path, undefined, null, AbortSignal.timeout(TEARDOWN_TIMEOUT_MS)).catch(() => undefined)
    return this.deleted
  }
}
