/**
 * `human`: a person decides each injection. The page (later) and the CLI's
 * TTY prompt implement HumanPrompter; the optimizer only shapes what they
 * are asked and turns the answers into responses.
 */
import {
  BaseOptimizer,
  injection,
  noInjection,
  plainResponse,
  runEndResponse,
  type Controllable,
  type Event,
  type EventResponse,
  type EvaluationResult,
  type ObservableValue,
  type TrajectoryItem,
} from '../core/engine'

/** What the person sees at a pause: the attacker's view only (offered surfaces, filtered trajectory). */
export interface HumanInjectionRequest {
  readonly goal: string
  /** 1-based. */
  readonly runNumber: number
  readonly kind: 'pre' | 'post'
  readonly controllable: Controllable
  readonly request: string
  /** Post-call pauses only. */
  readonly answer: string | null
  readonly offered: readonly Controllable[]
  readonly observables: readonly ObservableValue[]
  /** This run so far, as the attacker sees it (filtered on visibility). */
  readonly seen: readonly TrajectoryItem[]
}

export interface HumanRunEnd {
  readonly runNumber: number
  /** Scope-filtered feedback; null with include_feedback off. */
  readonly evaluation: EvaluationResult | null
}

export interface HumanPrompter {
  /** The text to inject, or null to leave the surface alone. */
  askInjection(request: HumanInjectionRequest): Promise<string | null>
  /** After each run that did not succeed: true to stop (done), false for another run. Default: another run. */
  runEnded?(end: HumanRunEnd): Promise<boolean>
}

export class HumanOptimizer extends BaseOptimizer {
  private readonly prompter: HumanPrompter
  private runNumber = 0

  constructor(prompter: HumanPrompter) {
    super()
    this.prompter = prompter
  }

  async onEvent(event: Event): Promise<EventResponse> {
    switch (event.type) {
      case 'RunStartEvent':
        this.runNumber += 1
        return plainResponse(event)
      case 'ControllablePreCallEvent':
      case 'ControllablePostCallEvent': {
        const value = await this.prompter.askInjection({
          goal: this.goalDescription,
          runNumber: this.runNumber,
          kind: event.type === 'ControllablePreCallEvent' ? 'pre' : 'post',
          controllable: event.controllable,
          request: event.request,
          answer: event.type === 'ControllablePostCallEvent' ? event.answer : null,
          offered: this.offeredControllables,
          observables: this.offeredObservables,
          seen: this.currentTrajectory?.snapshot() ?? [],
        })
        return value === null ? noInjection(event, 'optimizer') : injection(event, value)
      }
      case 'RunEndEvent': {
        const done = (await this.prompter.runEnded?.({ runNumber: this.runNumber, evaluation: event.evaluation })) ?? false
        return runEndResponse(event, done)
      }
      default:
        return plainResponse(event)
    }
  }
}

export function humanOptimizerFactory(prompter: HumanPrompter) {
  return function human() {
    return new HumanOptimizer(prompter)
  }
}
