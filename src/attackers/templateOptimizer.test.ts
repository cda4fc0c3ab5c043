import { buildDomain } from '../core/tags'
import { controllable, noopLLMClient, postCallEvent, preCallEvent, type EventResponse } from '../core/engine'
import { TemplateOptimizer } from './templateOptimizer'

const domain = buildDomain({ tags: [{ name: 'user', parent: null, description: '' }, { name: 'tools', parent: null, description: '' }] })
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
})
