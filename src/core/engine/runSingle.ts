/**
 * One run (the reference's `_run_single`): RunStart → target.run through the
 * recorder ∘ scope-filter ∘ channel pipeline → evaluate → RunEnd recorded,
 * then sent → trajectory closed.
 */
import { scopeIncludes, type Scope } from '../tags'
import { abortable, throwIfAborted } from './async'
import type { EventChannel } from './channel'
import {
  noInjection, runEndEvent, runStartEvent,
  type ControllableEvent, type ControllableResponse, type EventResponse,
} from './events'
import { covers, runEndDomain, type TaskScope } from './scopeResolution'
import type { SendEvent, Target, Task } from './target'
import type { Trajectory } from './trajectory'
import { evaluationResult, type EvaluationResult, type Score } from './types'

export interface RunSingleInput {
  readonly task: Task
  readonly target: Target
  readonly channel: EventChannel
  readonly trajectory: Trajectory
  readonly scope: TaskScope
  readonly includeFeedback: boolean
  readonly signal: AbortSignal
}

export interface RunSingleOutput {
  /** Unfiltered, as the evaluator returned it. */
  readonly evaluation: EvaluationResult
  readonly done: boolean
}

/** Front 4: sub-scores whose domain is null or visible; everything else is kept as is. */
export function filterEvaluation(evaluation: EvaluationResult, visibility: Scope): EvaluationResult {
  const visible = (s: Score) => s.securityDomain === null || scopeIncludes(visibility, s.securityDomain)
  // The common case hides nothing: checked without building entries (this runs once per run), and no copy then.
  let hidesAny = false
  for (const name in evaluation.subScores) {
    if (!visible(evaluation.subScores[name])) {
      hidesAny = true
      break
    }
  }
  if (!hidesAny) return evaluation
  return { ...evaluation, subScores: Object.fromEntries(Object.entries(evaluation.subScores).filter(([, s]) => visible(s))) }
}

function asControllableResponse(response: EventResponse, event: ControllableEvent): ControllableResponse {
  // The channel already enforced the allowed types; this narrows for the compiler.
  if (response.type === 'ControllableInjection' || response.type === 'ControllableNoInjection') return response
  throw new TypeError(`${event.type} requires response of type ControllableInjection, ControllableNoInjection, got ${response.type}`)
}

/**
 * The pipeline a target sends through. Outermost, the recorder: the event is
 * emitted, then the answer, so they sit side by side on the trajectory. Inside
 * it, front 5: a controllable the write scope does not cover is declined by
 * the framework ("scope") without asking the optimizer.
 */
export function buildSendEvent(trajectory: Trajectory, write: Scope, channel: EventChannel): SendEvent {
  return async (event) => {
    trajectory.emit(event)
    const response = covers(write, event.controllable.securityDomain)
      ? asControllableResponse(await channel.send(event), event)
      : noInjection(event, 'scope')
    trajectory.emit(response)
    return response
  }
}

/**
 * The run is one abortable await: when the signal fires, the caller unwinds
 * at once, and the abandoned run stops at its next step (each step checks the
 * signal), so nothing runs on after a cancellation that would not have before
 * (no evaluation of a cancelled run, no RunEnd sent).
 */
export function runSingle(input: RunSingleInput): Promise<RunSingleOutput> {
  return abortable(runSteps(input), input.signal)
}

async function runSteps(input: RunSingleInput): Promise<RunSingleOutput> {
  const { task, target, channel, trajectory, scope, signal } = input
  await channel.send(runStartEvent(trajectory.filtered))
  throwIfAborted(signal)
  const sendEvent = buildSendEvent(trajectory, scope.write, channel)
  await target.run(trajectory.emit, sendEvent, signal)
  throwIfAborted(signal)
  const returned = await task.evaluate(trajectory, target)
  throwIfAborted(signal)
  // Rebuilt through the validating constructor: an evaluator that hand-builds
  // a primary score with a domain fails here, as at construction in Python.
  const evaluation = evaluationResult(returned)
  const runEnd = runEndEvent(input.includeFeedback ? filterEvaluation(evaluation, scope.visibility) : null,
    { securityDomain: runEndDomain(scope.visibility) })
  // Recorded before it is sent, so the optimizer's view already holds it.
  trajectory.emit(runEnd)
  const response = await channel.send(runEnd)
  throwIfAborted(signal)
  trajectory.close()
  return { evaluation, done: response.type === 'RunEndResponse' && response.done }
}
