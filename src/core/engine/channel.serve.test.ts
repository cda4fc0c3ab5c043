/**
 * The channel's direct hand-off (`serve`): the rules of the pulling receiver
 * (one response per event, in order, poison and close) hold when the
 * receiver registers a handler instead.
 */
import { describe, expect, it } from 'vitest'
import { SecurityDomainTag } from '../tags'
import { EventChannel, type EventEnvelope } from './channel'
import { injection, preCallEvent, runEndResponse, type ControllablePreCallEvent, type EventResponse } from './events'
import { controllable } from './types'

const tag = new SecurityDomainTag('user')
const c = controllable('msg', tag)
const request = (envelope: EventEnvelope) => (envelope.event as ControllablePreCallEvent).request
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('EventChannel.serve', () => {
  it('hands concurrent sends over one at a time, in order: the next only once the one before was answered', async () => {
    const channel = new EventChannel()
    const log: string[] = []
    const release: Array<() => void> = []
    const served = channel.serve((envelope) => {
      log.push(`start ${request(envelope)}`)
      void new Promise<void>((r) => release.push(r)).then(() => {
        log.push(`answer ${request(envelope)}`)
        envelope.respond(injection(envelope.event as ControllablePreCallEvent, `v-${request(envelope)}`))
      })
    })
    const sent = ['a', 'b', 'c'].map((r) => channel.send(preCallEvent(c, r)))
    await tick()
    expect(log).toEqual(['start a'])
    for (let i = 0; i < 3; i++) {
      release.shift()!()
      await tick()
    }
    expect(log).toEqual(['start a', 'answer a', 'start b', 'answer b', 'start c', 'answer c'])
    expect((await Promise.all(sent)).map((r) => (r as { value: string }).value)).toEqual(['v-a', 'v-b', 'v-c'])
    channel.close()
    await expect(served).resolves.toBeUndefined()
  })

  it('a handler that answers at once is looped, not recursed: many queued sends do not grow the stack', async () => {
    const channel = new EventChannel()
    let depth = 0
    let deepest = 0
    const sent = Array.from({ length: 5_000 }, (_, i) => channel.send(preCallEvent(c, String(i))))
    void channel.serve((envelope) => {
      depth++
      deepest = Math.max(deepest, depth)
      envelope.respond(injection(envelope.event as ControllablePreCallEvent, 'x'))
      depth--
    })
    expect(await Promise.all(sent)).toHaveLength(5_000)
    expect(deepest).toBe(1)
  })

  it('hands over what was sent before serving began, and ends only once closed and drained', async () => {
    const channel = new EventChannel()
    const early = channel.send(preCallEvent(c, 'early'))
    let ended = false
    const served = channel
      .serve((envelope) => {
        envelope.respond(injection(envelope.event as ControllablePreCallEvent, 'x'))
      })
      .then(() => {
        ended = true
      })
    expect(await early).toMatchObject({ value: 'x' })
    await tick()
    expect(ended).toBe(false)
    const last = channel.send(preCallEvent(c, 'last'))
    channel.close()
    expect(await last).toMatchObject({ value: 'x' })
    await served
    expect(ended).toBe(true)
  })

  it('a rejected envelope stops serving with its error: nothing more is handed over until setError rejects it', async () => {
    const channel = new EventChannel()
    const boom = new Error('optimizer died')
    const handled: string[] = []
    const served = channel.serve((envelope) => {
      handled.push(request(envelope))
      envelope.reject(boom)
    })
    const first = channel.send(preCallEvent(c, 'first'))
    const second = channel.send(preCallEvent(c, 'second'))
    await expect(first).rejects.toBe(boom)
    await expect(served).rejects.toBe(boom)
    await tick()
    expect(handled).toEqual(['first'])
    channel.setError(boom)
    await expect(second).rejects.toBe(boom)
  })

  it('a handler that throws stops serving; the envelope it left unanswered is rejected by setError, never left hanging', async () => {
    const channel = new EventChannel()
    const boom = new Error('handler broke')
    const served = channel.serve(() => {
      throw boom
    })
    const sent = channel.send(preCallEvent(c, 'x'))
    await expect(served).rejects.toBe(boom)
    channel.setError(boom)
    await expect(sent).rejects.toBe(boom)
  })

  it('a response of a type the event does not allow rejects the sender and stops serving with the TypeError', async () => {
    const channel = new EventChannel()
    const thrown: unknown[] = []
    const served = channel.serve((envelope) => {
      try {
        envelope.respond(runEndResponse(envelope.event))
      } catch (error) {
        thrown.push(error)
      }
    })
    await expect(channel.send(preCallEvent(c, 'x'))).rejects.toThrow(TypeError)
    await expect(served).rejects.toThrow('ControllablePreCallEvent requires response of type ControllableInjection')
    expect(thrown).toHaveLength(1)
  })

  it('poisoning ends serving without an error of its own and rejects the envelope being handled', async () => {
    const channel = new EventChannel()
    const served = channel.serve(() => {})
    const sent = channel.send(preCallEvent(c, 'x'))
    const boom = new Error('poison')
    channel.setError(boom)
    await expect(served).resolves.toBeUndefined()
    await expect(sent).rejects.toBe(boom)
  })

  it('is exclusive: a served channel cannot be received from or served twice', async () => {
    const channel = new EventChannel()
    void channel.serve(() => {})
    await expect(channel.receive()).rejects.toThrow('EventChannel is served by a handler')
    await expect(channel.serve(() => {})).rejects.toThrow('EventChannel is already served')
  })

  it('onResponse sees the response before the sender resumes; if it throws, the sender gets its error and the responder does not', async () => {
    const channel = new EventChannel()
    const seen: string[] = []
    const responded: Array<'ok' | unknown> = []
    void channel.serve((envelope) => {
      try {
        envelope.respond(injection(envelope.event as ControllablePreCallEvent, request(envelope)))
        responded.push('ok')
      } catch (error) {
        responded.push(error)
      }
    })
    const record = (r: EventResponse) => {
      if ((r as { value: string }).value === 'refused') throw new Error('Cannot emit to a closed trajectory')
      seen.push((r as { value: string }).value)
    }
    const got = await channel.send(preCallEvent(c, 'kept'), record)
    expect(seen).toEqual(['kept'])
    expect(got).toMatchObject({ value: 'kept' })
    await expect(channel.send(preCallEvent(c, 'refused'), record)).rejects.toThrow('Cannot emit to a closed trajectory')
    expect(responded).toEqual(['ok', 'ok'])
  })
})
