import { describe, expect, it } from 'vitest'
import { SecurityDomainTag } from '../tags'
import { EventChannel } from './channel'
import { injection, noInjection, plainResponse, preCallEvent, runEndEvent, runEndResponse } from './events'
import { controllable } from './types'

const tag = new SecurityDomainTag('user')
const c = controllable('msg', tag)

describe('EventChannel', () => {
  it('delivers one response per event, in order', async () => {
    const channel = new EventChannel()
    const e1 = preCallEvent(c, 'one')
    const e2 = preCallEvent(c, 'two')
    const r1 = channel.send(e1)
    const r2 = channel.send(e2)
    const seen: string[] = []
    const consumer = (async () => {
      for (let envelope = await channel.receive(); envelope !== null; envelope = await channel.receive()) {
        seen.push((envelope.event as typeof e1).request)
        envelope.respond(injection(envelope.event as typeof e1, `v-${seen.length}`))
      }
    })()
    expect(await r1).toMatchObject({ type: 'ControllableInjection', value: 'v-1' })
    expect(await r2).toMatchObject({ type: 'ControllableInjection', value: 'v-2' })
    channel.close()
    await consumer
    expect(seen).toEqual(['one', 'two'])
  })

  it('a response of a type the event does not allow is a TypeError for both sides', async () => {
    const channel = new EventChannel()
    const event = preCallEvent(c, 'x')
    const sent = channel.send(event)
    const envelope = (await channel.receive())!
    expect(() => envelope.respond(runEndResponse(event))).toThrow(
      new TypeError(
        'ControllablePreCallEvent requires response of type ControllableInjection, ControllableNoInjection, got RunEndResponse',
      ),
    )
    await expect(sent).rejects.toThrow(TypeError)
  })

  it('RunEnd accepts only RunEndResponse; RunStart accepts anything', async () => {
    const channel = new EventChannel()
    const end = runEndEvent(null, { securityDomain: tag })
    const sent = channel.send(end)
    const envelope = (await channel.receive())!
    expect(() => envelope.respond(plainResponse(end))).toThrow(TypeError)
    await expect(sent).rejects.toThrow('RunEndEvent requires response of type RunEndResponse, got EventResponse')
  })

  it('responding twice is a RuntimeError; reject after respond is a no-op', async () => {
    const channel = new EventChannel()
    const event = preCallEvent(c, 'x')
    const sent = channel.send(event)
    const envelope = (await channel.receive())!
    envelope.respond(noInjection(event))
    expect(() => envelope.respond(noInjection(event))).toThrow('EventEnvelope already responded/rejected')
    envelope.reject(new Error('late'))
    expect(await sent).toMatchObject({ declinedBy: 'optimizer' })
  })

  it('setError rejects queued and taken envelopes and every later send; sending after close is a RuntimeError', async () => {
    const channel = new EventChannel()
    const taken = channel.send(preCallEvent(c, 'taken'))
    await channel.receive()
    const queued = channel.send(preCallEvent(c, 'queued'))
    const boom = new Error('optimizer died')
    channel.setError(boom)
    await expect(taken).rejects.toBe(boom)
    await expect(queued).rejects.toBe(boom)
    await expect(channel.send(preCallEvent(c, 'later'))).rejects.toBe(boom)
    expect(await channel.receive()).toBeNull()

    const closed = new EventChannel()
    closed.close()
    await expect(closed.send(preCallEvent(c, 'x'))).rejects.toThrow('Cannot send on a closed EventChannel')
    closed.setError(new Error('ignored after close'))
    await expect(closed.send(preCallEvent(c, 'x'))).rejects.toThrow('Cannot send on a closed EventChannel')
  })

  it('close lets the receiver drain what was queued, then receive gives null', async () => {
    const channel = new EventChannel()
    void channel.send(preCallEvent(c, 'a'))
    channel.close()
    const got: string[] = []
    for (let envelope = await channel.receive(); envelope !== null; envelope = await channel.receive()) {
      got.push((envelope.event as ReturnType<typeof preCallEvent>).request)
    }
    expect(got).toEqual(['a'])
    expect(await channel.receive()).toBeNull()
  })
})
