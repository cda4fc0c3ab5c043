/**
 * The Controller benches' shape, the same as bench/superred/controller.py:
 * an in-process target with N controllables under one tag, each run sends one
 * pre-call event per controllable, an optimizer that injects, a task that
 * scores every run the same; and the bare loop doing the same awaits
 * without the Controller.
 */
import { SecurityDomain, SecurityDomainTag, scopeOf } from '../src/core/tags'
import {
  BaseOptimizer,
  Controller,
  SecurityClaim,
  controllable,
  evaluationResult,
  injection,
  plainResponse,
  preCallEvent,
  runEndEvent,
  runEndResponse,
  runStartEvent,
  score,
  targetFactory,
  type Controllable,
  type Emit,
  type Event,
  type EventResponse,
  type ReadableTrajectory,
  type SendEvent,
  type Target,
  type Task,
} from '../src/core/engine'

const user = new SecurityDomainTag('user')
const domain = new SecurityDomain([user])

class BenchTarget implements Target {
  readonly securityDomain = domain
  readonly configSpecs = []
  readonly querySpecs = []
  constructor(private readonly surfaces: readonly Controllable[]) {}
  setConfig(): void {}
  query(): string {
    return ''
  }
  getControllables() {
    return this.surfaces
  }
  getObservables() {
    return []
  }
  async run(_emit: Emit, sendEvent: SendEvent): Promise<void> {
    for (const c of this.surfaces) await sendEvent(preCallEvent(c, 'request'))
  }
  async resetEphemeralState(): Promise<void> {}
  async teardown(): Promise<void> {}
}

class EchoOptimizer extends BaseOptimizer {
  async onEvent(event: Event): Promise<EventResponse> {
    if (event.type === 'ControllablePreCallEvent' || event.type === 'ControllablePostCallEvent') return injection(event, 'payload')
    if (event.type === 'RunEndEvent') return runEndResponse(event, false)
    return plainResponse(event)
  }
}

const judged = evaluationResult({ success: false, primaryScore: score(0.5), rationale: 'bench' })
const task = (goal: string): Task => ({ goal: { description: goal }, configureTarget: () => {}, evaluate: async () => judged })

export function surfacesOf(count: number): Controllable[] {
  return Array.from({ length: count }, (_, i) => controllable(`c${i}`, user))
}

export function controllerFor(runs: number, tasks: number, controllables: number): Controller {
  const surfaces = surfacesOf(controllables)
  return new Controller({
    optimizerFactory: () => new EchoOptimizer(),
    targetFactory: targetFactory(() => new BenchTarget(surfaces)),
    securityClaim: SecurityClaim.fromTasks(Array.from({ length: tasks }, (_, i) => task(`bench goal ${i + 1}`))),
    scope: scopeOf([user]),
    maxRunsPerTask: runs,
    attackerLabel: 'bench',
    targetLabel: 'bench-target',
    claimLabel: 'bench',
  })
}

/** What both bare loops share: the target, the optimizer, a task, and a send straight to the optimizer's handler, counted. */
function bareParts(controllables: number) {
  const optimizer = new EchoOptimizer()
  const target = new BenchTarget(surfacesOf(controllables))
  const counter = { events: 0 }
  const send: SendEvent = async (event) => {
    counter.events++
    const response = await optimizer.onEvent(event)
    return response as Awaited<ReturnType<SendEvent>>
  }
  return { optimizer, target, bare: task('bare'), send, counter }
}

/** The same awaits without the Controller: a target loop calling the optimizer's handler directly. Returns events. */
export async function bareLoop(runs: number, controllables: number): Promise<number> {
  const { target, bare, send, counter } = bareParts(controllables)
  for (let run = 0; run < runs; run++) {
    await target.run(() => {}, send)
    await bare.evaluate({ snapshot: () => [], drain: () => [] }, target)
  }
  return counter.events
}

/**
 * `bareLoop` without its per-run trajectory stand-in: that object literal's
 * two arrows are named at every run under tsx (esbuild keepNames wraps each
 * in `__name`, an Object.defineProperty), about 2.4 µs a run on the bench
 * machine, a cost the Controller does not pay. The view is made once here.
 * With `lifecycle`, the loop also makes and awaits the two events the
 * Controller must send besides the target's, by the optimizer's contract: a
 * RunStart before each run and a RunEnd (with the evaluation) after it, on
 * the optimizer's handler as the target's events are. Returns events.
 */
export async function leanBareLoop(runs: number, controllables: number, lifecycle: boolean): Promise<number> {
  const { optimizer, target, bare, send, counter } = bareParts(controllables)
  const view: ReadableTrajectory = { snapshot: () => [], drain: () => [] }
  for (let run = 0; run < runs; run++) {
    if (lifecycle) {
      counter.events++
      await optimizer.onEvent(runStartEvent(view))
    }
    await target.run(() => {}, send)
    const evaluation = await bare.evaluate(view, target)
    if (lifecycle) {
      counter.events++
      await optimizer.onEvent(runEndEvent(evaluation, { securityDomain: user }))
    }
  }
  return counter.events
}
