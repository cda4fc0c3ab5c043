/** One protocol session: one fresh Target instance (superred `TargetFactory.create`) and its current run. */
import type { Target } from '../../core/engine'
import type { RunStep, WireResponse } from '../../protocol/schemas'
import { ProtocolHttpError } from '../http/jsonIo'
import { RunDriver } from './runDriver'

export class TargetSession {
  readonly id: string
  readonly target: Target
  lastSeen: number
  private run: RunDriver | null = null
  private runs = 0
  private closed = false

  constructor(id: string, target: Target, now: number) {
    this.id = id
    this.target = target
    this.lastSeen = now
  }

  async setConfig(name: string, value: string): Promise<void> {
    if (!this.target.configSpecs.some((c) => c.name === name)) {
      throw new ProtocolHttpError(
        422,
        'unknown_config',
        `no config named '${name}' (known: ${this.target.configSpecs.map((c) => c.name).join(', ') || 'none'})`,
      )
    }
    try {
      await this.target.setConfig(name, value)
    } catch (e) {
      // The name is known, so the value was refused: the client's mistake, told as such.
      throw new ProtocolHttpError(422, 'invalid_config', `config '${name}': ${(e as Error).message}`)
    }
  }

  async query(name: string, params: Readonly<Record<string, string>>): Promise<string> {
    const spec = this.target.querySpecs.find((q) => q.name === name)
    if (spec === undefined) {
      throw new ProtocolHttpError(
        422,
        'unknown_query',
        `no query named '${name}' (known: ${this.target.querySpecs.map((q) => q.name).join(', ') || 'none'})`,
      )
    }
    // A declared parameter left out is the caller's mistake, not the target's failure.
    const missing = spec.params.map((p) => p.name).filter((p) => !Object.hasOwn(params, p))
    if (missing.length > 0) {
      throw new ProtocolHttpError(
        422,
        'missing_param',
        `query '${name}' needs parameter${missing.length > 1 ? 's' : ''} ${missing.map((p) => `'${p}'`).join(', ')}`,
      )
    }
    try {
      return await this.target.query(name, params)
    } catch (e) {
      throw new ProtocolHttpError(500, 'target_error', `query '${name}' failed: ${(e as Error).message}`)
    }
  }

  startRun(): Promise<RunStep> {
    if (this.run?.active) {
      throw new ProtocolHttpError(409, 'run_active', `run ${this.run.id} is still in progress in session ${this.id}`)
    }
    this.run = new RunDriver(`r${++this.runs}`, this.target)
    return this.run.nextStep()
  }

  respond(runId: string, callId: string, response: WireResponse): Promise<RunStep> {
    if (this.run === null || this.run.id !== runId) {
      throw new ProtocolHttpError(409, 'not_pending', `run ${runId} is not the current run of session ${this.id}`)
    }
    this.run.respond(callId, response)
    return this.run.nextStep()
  }

  /** superred `reset_ephemeral_state`. A run still paused is stopped first. */
  async reset(): Promise<void> {
    this.run?.cancel('session reset')
    this.run = null
    await this.target.resetEphemeralState()
  }

  /** superred `teardown`: stops the run and releases the target. Idempotent. */
  async close(reason: string): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.run?.cancel(reason)
    this.run = null
    await this.target.teardown()
  }
}
