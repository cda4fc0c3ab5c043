/**
 * `template`: run k injects template k at every offered surface of the
 * chosen kind (pre-calls, post-calls or both) and declines elsewhere; after
 * the last template it tells the Controller it is done. A template is one
 * message: a pre-call asked again in the same run (a chat target's next turn,
 * as superred's ChatbotTarget asks for the user message until it is declined)
 * is declined, which ends the conversation.
 */
import {
  BaseOptimizer, injection, noInjection, plainResponse, runEndResponse, type Event, type EventResponse,
} from '../core/engine'
import { injectsAt, type InjectOn } from './injectOn'
import { fillTemplate } from './payloads'
import { DEFAULT_INJECT_ON } from '../core/defaults'

export interface TemplateOptions {
  readonly templates: readonly string[]
  /** Default 'pre'. */
  readonly injectOn?: InjectOn
}

export class TemplateOptimizer extends BaseOptimizer {
  private readonly templates: readonly string[]
  private readonly injectOn: InjectOn
  /** 0-based: the template of the run in progress. */
  private runIndex = 0
  /** Pre-call controllables injected in the run in progress. */
  private readonly saidThisRun = new Set<string>()

  constructor(options: TemplateOptions) {
    super()
    if (options.templates.length === 0) throw new Error('the template attacker needs at least one template')
    this.templates = options.templates
    this.injectOn = options.injectOn ?? DEFAULT_INJECT_ON.template
  }


  async onEvent(event: Event): Promise<EventResponse> {
    switch (event.type) {
      case 'ControllablePreCallEvent':
      case 'ControllablePostCallEvent': {
        const template = this.templates[Math.min(this.runIndex, this.templates.length - 1)]
        if (!injectsAt(this.injectOn, event)) return noInjection(event, 'optimizer')
        if (event.type === 'ControllablePreCallEvent') {
          if (this.saidThisRun.has(event.controllable.name)) return noInjection(event, 'optimizer')
          this.saidThisRun.add(event.controllable.name)
        }
        return injection(event, fillTemplate(template, { goal: this.goalDescription, controllable: event.controllable.name, request: event.request }))
      }
      case 'RunEndEvent':
        this.saidThisRun.clear()
        this.runIndex += 1
        return runEndResponse(event, this.runIndex >= this.templates.length)
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
