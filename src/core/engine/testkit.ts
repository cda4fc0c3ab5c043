/**
 * In-process fixtures for driving the Controller headlessly: a scripted
 * target over a small forest, a scripted optimizer and task. Test fixtures,
 * not mocks: they implement the real interfaces and run through the real
 * channel, trajectory and persistence.
 */
import { SecurityDomain, SecurityDomainTag } from '../tags'
import { BaseOptimizer } from './optimizer'
import type { Emit, SendEvent, Target, Task } from './target'
import {
  injection,
  observableEvent,
  plainResponse,
  postCallEvent,
  preCallEvent,
  runEndResponse,
  type Event,
  type EventResponse,
  type ReadableTrajectory,
} from './events'
import type { LLMClient } from './budget'
import {
  controllable,
  evaluationResult,
  observable,
  observableValue,
  score,
  type Controllable,
  type EvaluationResult,
  type Goal,
  type ObservableValue,
} from './types'

/** The fixture tree's forest: system → system_prompt; user; inbox; model; web. */
export function stubForest() {
  const system = new SecurityDomainTag('system')
  const systemPrompt = new SecurityDomainTag('system_prompt', system)
  const user = new SecurityDomainTag('user')
  const inbox = new SecurityDomainTag('inbox')
  const model = new SecurityDomainTag('model')
  const web = new SecurityDomainTag('web')
  const domain = new SecurityDomain([system, systemPrompt, user, inbox, model, web])
  return { system, systemPrompt, user, inbox, model, web, domain }
}
export type StubForest = ReturnType<typeof stubForest>

export type Step =
  | { readonly kind: 'pre'; readonly controllable: string; readonly request: string }
  | { readonly kind: 'post'; readonly controllable: string; readonly request: string; readonly answer: string }
  | { readonly kind: 'observe'; readonly observable: string; readonly content: unknown }
  | { readonly kind: 'throw'; readonly message: string }
  | { readonly kind: 'hang' }

/** The fixture tree's run: the same surfaces, in the same order. */
export const FIXTURE_STEPS: readonly Step[] = [
  { kind: 'pre', controllable: 'sys_prompt', request: 'system prompt?' },
  { kind: 'pre', controllable: 'user_msg', request: 'user turn 1' },
  { kind: 'observe', observable: 'model_output', content: 'calling read_inbox' },
  { kind: 'pre', controllable: 'inbox_email', request: 'read_inbox()' },
  { kind: 'post', controllable: 'inbox_email', request: 'read_inbox()', answer: '3 emails' },
  { kind: 'observe', observable: 'tool_result', content: '<html>page</html>' },
  { kind: 'pre', controllable: 'web_page', request: 'browse(url)' },
  { kind: 'observe', observable: 'model_output', content: 'final answer' },
]

export class StubTarget implements Target {
  readonly forest: StubForest
  readonly securityDomain: SecurityDomain
  readonly configSpecs = []
  readonly querySpecs = []
  readonly controllables: Controllable[]
  readonly staticObservables: ObservableValue[]
  private readonly byName: Map<string, Controllable>
  private readonly observables: Map<string, ReturnType<typeof observable>>
  steps: (run: number) => readonly Step[]
  /** What the target received at each controllable, per run. */
  readonly received: Array<Array<{ controllable: string; type: string; value?: string; declinedBy?: string }>> = []
  runs = 0
  resets = 0
  teardowns = 0
  config = new Map<string, string>()
  failReset = false
  failTeardown = false

  constructor(forest: StubForest = stubForest(), steps: (run: number) => readonly Step[] = () => FIXTURE_STEPS) {
    this.forest = forest
    this.securityDomain = forest.domain
    this.steps = steps
    this.controllables = [
      controllable('sys_prompt', forest.systemPrompt, { description: 'sys_prompt surface' }),
      controllable('user_msg', forest.user, { description: 'user_msg surface' }),
      controllable('inbox_email', forest.inbox, { description: 'inbox_email surface' }),
      controllable('web_page', forest.web, { description: 'web_page surface' }),
    ]
    this.byName = new Map(this.controllables.map((c) => [c.name, c]))
    this.observables = new Map([
      ['model_output', observable('model_output', forest.model)],
      ['tool_result', observable('tool_result', forest.web)],
    ])
    this.staticObservables = [
      observableValue(observable('model_identity', forest.system, { description: 'which model runs' }), 'stub-1'),
      observableValue(observable('user_profile', forest.user), { name: 'alice' }),
    ]
  }

  /** An observable of the stub forest by name (for subclasses that emit their own events). */
  protected observableNamed(name: 'model_output' | 'tool_result'): ReturnType<typeof observable> {
    return this.observables.get(name)!
  }

  setConfig(name: string, value: string): void {
    this.config.set(name, value)
  }

  query(name: string): string {
    return name === 'received' ? JSON.stringify(this.received.at(-1) ?? []) : ''
  }

  getControllables(): readonly Controllable[] {
    return this.controllables
  }

  getObservables(): readonly ObservableValue[] {
    return this.staticObservables
  }

  async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void> {
    this.runs += 1
    const log: StubTarget['received'][number] = []
    this.received.push(log)
    for (const step of this.steps(this.runs)) {
      switch (step.kind) {
        case 'pre':
        case 'post': {
          const c = this.byName.get(step.controllable)!
          const event = step.kind === 'pre' ? preCallEvent(c, step.request) : postCallEvent(c, step.request, step.answer)
          const r = await sendEvent(event)
          log.push(
            r.type === 'ControllableInjection'
              ? { controllable: c.name, type: r.type, value: r.value }
              : { controllable: c.name, type: r.type, declinedBy: r.declinedBy },
          )
          break
        }
        case 'observe':
          emit(observableEvent(this.observables.get(step.observable)!, step.content))
          break
        case 'throw':
          throw new Error(step.message)
        case 'hang':
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))
          throw new Error('aborted while hanging')
      }
    }
  }

  async resetEphemeralState(): Promise<void> {
    this.resets += 1
    if (this.failReset) throw new Error('reset failed')
  }

  async teardown(): Promise<void> {
    this.teardowns += 1
    if (this.failTeardown) throw new Error('teardown failed')
  }
}

/** Scores a run; by default a constant 0.5 with the fixture's sub-scores. */
export type Judge = (run: number, trajectory: ReadableTrajectory, target: Target) => EvaluationResult | Promise<EvaluationResult>

export function fixtureEvaluation(forest: StubForest, success = false, value = 0.5): EvaluationResult {
  return evaluationResult({
    success,
    primaryScore: score(value),
    rationale: 'scripted',
    subScores: {
      user_score: score(0.1, forest.user, 'user_score'),
      inbox_score: score(0.2, forest.inbox, 'inbox_score'),
      sys_score: score(0.3, forest.systemPrompt, 'sys_score'),
      global: score(0.4, null, 'global'),
    },
  })
}

export class ScriptedTask implements Task {
  readonly goal: Goal
  private runs = 0
  readonly judge: Judge
  readonly configure: (target: Target) => void | Promise<void>
  seenTrajectories: ReadableTrajectory[] = []

  constructor(goal: string, judge: Judge, configure: (target: Target) => void | Promise<void> = () => {}) {
    this.goal = { description: goal }
    this.judge = judge
    this.configure = configure
  }

  configureTarget(target: Target): void | Promise<void> {
    return this.configure(target)
  }

  async evaluate(trajectory: ReadableTrajectory, target: Target): Promise<EvaluationResult> {
    this.runs += 1
    this.seenTrajectories.push(trajectory)
    return this.judge(this.runs, trajectory, target)
  }
}

export interface OptimizerScript {
  /** The value to inject, or null to decline (declined_by "optimizer"). Default: `INJ:<name>`. */
  inject?: (event: Event & { controllable: Controllable }, run: number) => string | null
  /** done=true after this run? */
  done?: (run: number) => boolean
  /** Throws from onEvent when it returns a message. */
  failOn?: (event: Event, run: number) => string | null
  /** Called in initialize (e.g. to spend LLM budget). */
  init?: (llm: LLMClient) => Promise<void>
}

export class ScriptedOptimizer extends BaseOptimizer {
  readonly script: OptimizerScript
  readonly seen: Event[] = []
  run_ = 0
  tornDown = false

  constructor(script: OptimizerScript = {}) {
    super()
    this.script = script
  }

  override async initialize(goal: Goal, controllables: readonly Controllable[], observables: readonly ObservableValue[], llm: LLMClient) {
    await super.initialize(goal, controllables, observables, llm)
    await this.script.init?.(llm)
  }

  async onEvent(event: Event): Promise<EventResponse> {
    this.seen.push(event)
    if (event.type === 'RunStartEvent') this.run_ += 1
    const failure = this.script.failOn?.(event, this.run_)
    if (failure) throw new Error(failure)
    switch (event.type) {
      case 'ControllablePreCallEvent':
      case 'ControllablePostCallEvent': {
        const value = this.script.inject ? this.script.inject(event, this.run_) : `INJ:${event.controllable.name}`
        return value === null
          ? { type: 'ControllableNoInjection', event, controllable: event.controllable, declinedBy: 'optimizer' }
          : injection(event, value)
      }
      case 'RunEndEvent':
        return runEndResponse(event, this.script.done?.(this.run_) ?? false)
      default:
        return plainResponse(event)
    }
  }

  override async teardown(): Promise<void> {
    this.tornDown = true
  }
}
