/**
 * An in-process multi-turn chat target, shaped like superred's ChatbotTarget:
 * after each answer it asks for the next user message (a pre-call on
 * `user_msg`) and ends the conversation only when that is declined. An
 * attacker that never declines keeps it talking for ever, which is what the
 * turn limit must stop. Replies are observed on `model_output`.
 */
import { observableEvent, preCallEvent, type Emit, type SendEvent } from '../core/engine'
import { StubTarget } from '../core/engine/testkit'

export class ConversationTarget extends StubTarget {
  /** User messages received per run. */
  readonly turns: number[] = []

  override async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void> {
    this.runs += 1
    const userMsg = this.getControllables().find((c) => c.name === 'user_msg')!
    const output = this.observableNamed('model_output')
    let turns = 0
    for (;;) {
      signal?.throwIfAborted()
      const r = await sendEvent(preCallEvent(userMsg, turns === 0 ? 'first user message' : 'next user message'))
      if (r.type !== 'ControllableInjection') break
      turns += 1
      emit(observableEvent(output, `I will not do "${r.value.slice(0, 40)}".`))
    }
    this.turns.push(turns)
  }
}
