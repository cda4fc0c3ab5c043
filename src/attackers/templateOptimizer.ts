/**
 * `template`: a fixed list of payloads, tried in order, one per run. Run k
 * injects template k (filled from the goal and the surface: payloads.ts) at
 * every offered surface of the chosen kind (pre-calls, post-calls or both)
 * and declines elsewhere. It is not a search: it reads no feedback and never
 * changes a payload. A template is one message: a pre-call asked again in the
 * same run (a chat target's next turn, as superred's ChatbotTarget asks for
 * the user message until it is declined) is declined, which ends the
 * conversation.
 *
 * With `cycle` (redscope's semantics, the default), after the last template
 * it starts again from the first and never says it is done: the task runs
 * until a success or the run cap, so a stochastic target gets every try the
 * cap allows. Without it (superred 0.3.0's semantics, where the Controller
 * does not stop on a success), it is done after the last template, as
 * superred's own prompt-list optimizer (DemoPromptListOptimizer) is.
 */
import { BaseOptimizer, injection, noInjection, plainResponse, runEndResponse, type Event, type EventResponse } from '../core/engine'
import { injectsAt, type InjectOn } from './injectOn'
import { fillTemplate } from './payloads'
import { DEFAULT_INJECT_ON } from '../core/defaults'

export interface TemplateOptions {
  readonly templates: readonly string[]
  /** Default 'pre'. */
  readonly injectOn?: InjectOn
  /** Start again after the last template instead of saying done (default true: redscope's semantics). */
  readonly cycle?: boolean
}

export class TemplateOptimizer extends BaseOptimizer {
  private readonly templates: readonly string[]
  private readonly injectOn: InjectOn
  private readonly cycle: boolean
  /** 0-based: the template of the run in progress. */
  private runIndex = 0
  /** Pre-call controllables injected in the run in progress. */
  private readonly saidThisRun = new Set<string>()

  constructor(options: TemplateOptions) {
    super()
    if (options.templates.length === 0) throw new Error('the template attacker needs at least one template')
    this.templates = options.templates
    this.injectOn = options.injectOn ?? DEFAULT_INJECT_ON.template
    this.cycle = options.cycle ?? true
  }

  async onEvent(event: Event): Promise<EventResponse> {
    switch (event.type) {
      case 'ControllablePreCallEvent':
      case 'ControllablePostCallEvent': {
        const template = this.templates[this.runIndex % this.templates.length]
        if (!injectsAt(this.injectOn, event)) return noInjection(event, 'optimizer')
        if (event.type === 'ControllablePreCallEvent') {
          if (this.saidThisRun.has(event.controllable.name)) return noInjection(event, 'optimizer')
          this.saidThisRun.add(event.controllable.name)
        }
        return injection(
          event,
          fillTemplate(template, { goal: this.goalDescription, controllable: event.controllable.name, request: event.request }),
        )
      }
      case 'RunEndEvent':
        this.saidThisRun.clear()
        this.runIndex += 1
        return runEndResponse(event, !this.cycle && this.runIndex >= this.templates.length)
      default:
        return plainResponse(event)
    }
  }
}

/** A factory for the Controller (named `template`; with its configuration, results folders read `template-3f2a9c1b__...`). */
export function templateOptimizerFactory(options: TemplateOptions) {
  return function template() {
    return new TemplateOptimizer(options)
  }
}
