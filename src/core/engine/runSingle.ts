/**
 * One run (the reference's `_run_single`): RunStart → target.run through the
 * recorder ∘ scope-filter ∘ channel pipeline → evaluate → RunEnd recorded,
 * then sent → trajectory closed.
 */
import { scopeIncludes, type Scope } from '../tags'
import type { AbortLatch } from './async'
import type { EventChannel } from './channel'
import { noInjection, runEndEvent, runStartEvent, type ControllableResponse, type TrajectoryItem } from './events'
import { covers, runEndDomain, type TaskScope } from './scopeResolution'
import type { SendEvent, Target, Task } from './target'
import type { Trajectory } from './trajectory'
import { ownedEvaluation, type EvaluationResult, type Score } from './types'
import { echoedEvaluation, echoedInjections, type RunEcho } from './echo'

export interface RunSingleInput {
  readonly task: Task
  readonly target: Target
  readonly channel: EventChannel
  readonly trajectory: Trajectory
  readonly scope: TaskScope
  readonly includeFeedback: boolean
  /** An echoed success (echo.ts) stays a success; otherwise it is judged a failure. */
  readonly countEchoes: boolean
  /** The task's signal, read through a latch: checked after every step. */
  readonly cancel: AbortLatch
  /** Called with 1, 2, … as each pause of this run reaches the optimizer. */
  readonly onTurn?: (turn: number) => void
}

export interface RunSingleOutput {
  /** Unfiltered: the evaluator's, or, for an echo not counted, the echo rule's failure. */
  readonly evaluation: EvaluationResult
  readonly done: boolean
  /** Set when the success was the attacker's own echo (counted or not). */
  readonly echo: RunEcho | null
  /** How the target's run ended: on its own, or after the attacker declined its last pause (by choice or at its turn limit). */
  readonly endedBy: 'target' | 'declined' | 'turn_limit'
}

/**
 * Who ended a run the target finished: the last answer to a pause, read back from the end of the trajectory.
 * An optimizer's decline there is what ended a conversation that asks again after every answer.
 */
export function runEndedBy(items: readonly TrajectoryItem[]): RunSingleOutput['endedBy'] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]
    if (item.type === 'ControllableInjection') return 'target'
    if (item.type === 'ControllableNoInjection') {
      if (item.declinedBy !== 'optimizer') return 'target'
      return item.atTurnLimit === true ? 'turn_limit' : 'declined'
    }
  }
  return 'target'
}

/** Front 4: sub-scores whose domain is null or visible; everything else is kept as is. */
export function filterEvaluation(evaluation: EvaluationResult, visibility: Scope): EvaluationResult {
  // The common case hides nothing: checked without building entries (this runs once per run), and no copy then.
  let hidesAny = false
  for (const name in evaluation.subScores) {
    if (!isVisible(evaluation.subScores[name], visibility)) {
      hidesAny = true
      break
    }
  }
  if (!hidesAny) return evaluation
  return { ...evaluation, subScores: Object.fromEntries(Object.entries(evaluation.subScores).filter(([, s]) => isVisible(s, visibility))) }
}

// A module function, not a closure per call: under tsx (esbuild keepNames) a named closure costs a name definition per call.
function isVisible(s: Score, visibility: Scope): boolean {
  return s.securityDomain === null || scopeIncludes(visibility, s.securityDomain)
}

/**
 * The pipeline a target sends through. Outermost, the recorder: the event is
 * emitted, then the answer, so they sit side by side on the trajectory (the
 * channel records the answer as it is delivered, so the sender's promise is
 * the channel's own, without a wrapper per event). Inside it, front 5: a
 * controllable the write scope does not cover is declined by the framework
 * ("scope") without asking the optimizer.
 */
export function buildSendEvent(trajectory: Trajectory, write: Scope, channel: EventChannel, onTurn?: (turn: number) => void): SendEvent {
  let turns = 0
  return (event) => {
    try {
      trajectory.emit(event)
      if (covers(write, event.controllable.securityDomain)) {
        if (onTurn !== undefined) onTurn(++turns)
        // The channel already enforced the allowed types (ControllableInjection, ControllableNoInjection).
        return channel.send(event, trajectory.emit) as Promise<ControllableResponse>
      }
      const declined = noInjection(event, 'scope')
      trajectory.emit(declined)
      return Promise.resolve(declined)
    } catch (error) {
      // As from an async function: a failure is the returned promise's, never a synchronous throw.
      return Promise.reject(error)
    }
  }
}

/**
 * One run. Each step checks the signal, so a run abandoned by a cancellation
 * (the task's loop is one abortable await, see runTask) stops at its next
 * step: nothing runs on after a cancellation that would not have before (no
 * evaluation of a cancelled run, no RunEnd sent).
 */
export async function runSingle(input: RunSingleInput): Promise<RunSingleOutput> {
  const { task, target, channel, trajectory, scope, cancel } = input
  cancel.check()
  await channel.send(runStartEvent(trajectory.filtered))
  cancel.check()
  const sendEvent = buildSendEvent(trajectory, scope.write, channel, input.onTurn)
  await target.run(trajectory.emit, sendEvent, cancel.signal)
  cancel.check()
  const endedBy = runEndedBy(trajectory.snapshot())
  const returned = await task.evaluate(trajectory, target)
  cancel.check()
  // Rebuilt through the validating constructor unless it built this one: an evaluator
  // that hand-builds a primary score with a domain fails here, as at construction in Python.
  const claimed = ownedEvaluation(returned)
  // Before the RunEnd is recorded and sent: an echo not counted is a failure everywhere, the optimizer's feedback included.
  const echoed = echoedInjections(claimed, () => trajectory.snapshot())
  const echo: RunEcho | null = echoed === null ? null : { ...echoed, counted: input.countEchoes, claimed }
  const evaluation = echo === null || echo.counted ? claimed : echoedEvaluation(claimed, echo)
  const runEnd = runEndEvent(input.includeFeedback ? filterEvaluation(evaluation, scope.visibility) : null, {
    securityDomain: runEndDomain(scope.visibility),
  })
  // Recorded before it is sent, so the optimizer's view already holds it.
  trajectory.emit(runEnd)
  const response = await channel.send(runEnd)
  cancel.check()
  trajectory.close()
  return { evaluation, done: response.type === 'RunEndResponse' && response.done, echo, endedBy }
}
