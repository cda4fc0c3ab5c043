import { buildDomain } from '../core/tags'
import { controllable, noopLLMClient, postCallEvent, preCallEvent, runEndEvent, type EventResponse } from '../core/engine'
import { TemplateOptimizer } from './templateOptimizer'

const domain = buildDomain({
  tags: [
    { name: 'user', parent: null, description: '' },
    { name: 'tools', parent: null, description: '' },
  ],
})
const userMessage = controllable('user_message', domain.get('user')!)
const inbox = controllable('read_inbox', domain.get('tools')!)

const kind = (r: EventResponse) => r.type

describe('template attacker', () => {
  it("says its template once per run at a pre-call, so a chat target's next turn is declined and the conversation ends", async () => {
    const o = new TemplateOptimizer({ templates: ['hello {goal}'], injectOn: 'both' })
    await o.initialize({ description: 'leak' }, [userMessage, inbox], [], noopLLMClient())
    const first = await o.onEvent(preCallEvent(userMessage, ''))
    expect(first).toMatchObject({ type: 'ControllableInjection', value: 'hello leak' })
    // The same chat asks for the next user message: declined.
    expect(kind(await o.onEvent(preCallEvent(userMessage, '')))).toBe('ControllableNoInjection')
    // Tool reads are not turns: each read gets the payload.
    expect(kind(await o.onEvent(postCallEvent(inbox, 'read_inbox()', 'mail')))).toBe('ControllableInjection')
    expect(kind(await o.onEvent(postCallEvent(inbox, 'read_inbox()', 'mail')))).toBe('ControllableInjection')
  })

  it('cycles through its templates and never says done (redscope); without cycling it is done after the last (superred 0.3.0)', async () => {
    const runs = async (cycle: boolean) => {
      const o = new TemplateOptimizer({ templates: ['a {goal}', 'b {goal}'], cycle })
      await o.initialize({ description: 'x' }, [userMessage], [], noopLLMClient())
      const said: string[] = []
      const done: boolean[] = []
      for (let run = 1; run <= 5; run++) {
        const r = await o.onEvent(preCallEvent(userMessage, ''))
        said.push(r.type === 'ControllableInjection' ? r.value : '-')
        const end = await o.onEvent(runEndEvent(null))
        done.push((end as { done: boolean }).done)
      }
      return { said, done }
    }
    expect(await runs(true)).toEqual({ said: ['a x', 'b x', 'a x', 'b x', 'a x'], done: [false, false, false, false, false] })
    const once = await runs(false)
    expect(once.said.slice(0, 2)).toEqual(['a x', 'b x'])
    expect(once.done.slice(0, 2)).toEqual([false, true])
  })
})
