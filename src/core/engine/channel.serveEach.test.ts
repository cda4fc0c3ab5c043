/**
 * The channel's answerer mode (`serveEach`, what BaseOptimizer uses): an
 * event sent while nothing waits is answered with the answerer's own promise,
 * events sent meanwhile are queued; the rules of the pulling receiver (one
 * response per event, in order, poison and close) hold for both.
 */
import { describe, expect, it } from 'vitest'
import { SecurityDomainTag } from '../tags'
import { EventChannel, type EventAnswerer } from './channel'
import {
  injection,
  noInjection,
  plainResponse,
  postCallEvent,
  preCallEvent,
  RESPONSE_TYPES,
  responseAllowed,
  runEndEvent,
  runEndResponse,
  runStartEvent,
  type ControllablePreCallEvent,
  type Event,
  type EventResponse,
} from './events'
import { controllable } from './types'

const tag = new SecurityDomainTag('user')
const c = controllable('msg', tag)
const tick = () => new Promise((r) => setTimeout(r, 0))
const requestOf = (event: Event) => (event as ControllablePreCallEvent).request
const valueOf = (response: EventResponse) => (response as { value: string }).value

/** An answerer whose answers wait until released, logging its steps. */
function gated(log: string[]) {
  const release: Array<() => void> = []
  const answerer: EventAnswerer = {
    answer: async (event) => {
      log.push(`start ${requestOf(event)}`)
      await new Promise<void>((r) => release.push(r))
      return injection(event as ControllablePreCallEvent, `v-${requestOf(event)}`)
    },
    handled: (event) => {
      log.push(`handled ${requestOf(event)}`)
    },
  }
  return { answerer, release }
}

describe('EventChannel.serveEach', () => {
  it('answers a lone send with the answer, told handled and recorded before the sender resumes', async () => {
    const channel = new EventChannel()
    const log: string[] = []
    const served = channel.serveEach({
      answer: (event) => {
        log.push(`answer ${requestOf(event)}`)
        return injection(event as ControllablePreCallEvent, 'x') // a plain value is accepted as an answer
      },
      handled: (event) => {
        log.push(`handled ${requestOf(event)}`)
      },
    })
    const got = await channel.send(preCallEvent(c, 'a'), (r) => {
      log.push(`recorded ${valueOf(r)}`)
    })
    log.push('resumed')
    expect(valueOf(got)).toBe('x')
    expect(log).toEqual(['answer a', 'handled a', 'recorded x', 'resumed'])
    channel.close()
    await expect(served).resolves.toBeUndefined()
  })

  it('queues concurrent sends and hands each over only once the one before was answered, in order', async () => {
    const channel = new EventChannel()
    const log: string[] = []
    const { answerer, release } = gated(log)
    const served = channel.serveEach(answerer)
    const sent = ['a', 'b', 'c'].map((r) => channel.send(preCallEvent(c, r)))
    await tick()
    expect(log).toEqual(['start a'])
    for (let i = 0; i < 3; i++) {
      release.shift()!()
      await tick()
    }
    expect(log).toEqual(['start a', 'handled a', 'start b', 'handled b', 'start c', 'handled c'])
    expect((await Promise.all(sent)).map(valueOf)).toEqual(['v-a', 'v-b', 'v-c'])
    channel.close()
    await expect(served).resolves.toBeUndefined()
  })

  it('hands over what was sent before serving began, and ends only once closed and drained', async () => {
    const channel = new EventChannel()
    const early = channel.send(preCallEvent(c, 'early'))
    let ended = false
    const served = channel
      .serveEach({ answer: (event) => injection(event as ControllablePreCallEvent, 'x'), handled: () => {} })
      .then(() => {
        ended = true
      })
    expect(valueOf(await early)).toBe('x')
    await tick()
    expect(ended).toBe(false)
    const last = channel.send(preCallEvent(c, 'last'))
    channel.close()
    expect(valueOf(await last)).toBe('x')
    await served
    expect(ended).toBe(true)
  })

  it('answers many queued sends in order, one at a time', async () => {
    const channel = new EventChannel()
    let answering = 0
    let most = 0
    const sent = Array.from({ length: 5_000 }, (_, i) => channel.send(preCallEvent(c, String(i))))
    void channel.serveEach({
      answer: async (event) => {
        most = Math.max(most, ++answering)
        await Promise.resolve()
        answering--
        return injection(event as ControllablePreCallEvent, requestOf(event))
      },
      handled: () => {},
    })
    const got = (await Promise.all(sent)).map(valueOf)
    expect(got).toEqual(Array.from({ length: 5_000 }, (_, i) => String(i)))
    expect(most).toBe(1)
  })

  it('ends once closed and drained: not while an event is still being answered', async () => {
    const channel = new EventChannel()
    const log: string[] = []
    const { answerer, release } = gated(log)
    let ended = false
    const served = channel.serveEach(answerer).then(() => {
      ended = true
    })
    const sent = channel.send(preCallEvent(c, 'a'))
    channel.close()
    await tick()
    expect(ended).toBe(false)
    release.shift()!()
    expect(valueOf(await sent)).toBe('v-a')
    await served
    expect(ended).toBe(true)
  })

  it('a wrong response type rejects the sender with a TypeError and stops serving with it, direct or queued', async () => {
    for (const queued of [false, true]) {
      const channel = new EventChannel()
      const handled: string[] = []
      const served = channel.serveEach({
        answer: (event) => (event.type === 'RunStartEvent' ? plainResponse(event) : runEndResponse(event)),
        handled: (event) => {
          handled.push(event.type)
        },
      })
      const first = channel.send(runStartEvent({ snapshot: () => [], drain: () => [] }))
      if (!queued) await first
      await expect(channel.send(preCallEvent(c, 'x'))).rejects.toThrow(TypeError)
      await expect(served).rejects.toThrow(
        'ControllablePreCallEvent requires response of type ControllableInjection, ControllableNoInjection',
      )
      expect(handled).toEqual(['RunStartEvent', 'ControllablePreCallEvent'])
    }
  })

  it('a failed answer (throw or rejection) rejects its sender and stops serving; a queued send waits for setError', async () => {
    for (const how of ['throw', 'reject'] as const) {
      const channel = new EventChannel()
      const boom = new Error(`optimizer ${how}`)
      const handled: string[] = []
      const served = channel.serveEach({
        answer: () => {
          if (how === 'throw') throw boom
          return Promise.reject(boom)
        },
        handled: (event) => {
          handled.push(requestOf(event))
        },
      })
      const first = channel.send(preCallEvent(c, 'first'))
      const second = channel.send(preCallEvent(c, 'second'))
      await expect(first).rejects.toBe(boom)
      await expect(served).rejects.toBe(boom)
      await tick()
      expect(handled).toEqual(['first'])
      const third = channel.send(preCallEvent(c, 'third'))
      channel.setError(boom)
      await expect(second).rejects.toBe(boom)
      await expect(third).rejects.toBe(boom)
      await expect(channel.send(preCallEvent(c, 'later'))).rejects.toBe(boom)
    }
  })

  it('a recorder that throws fails its sender only: serving goes on', async () => {
    const channel = new EventChannel()
    void channel.serveEach({ answer: (event) => injection(event as ControllablePreCallEvent, requestOf(event)), handled: () => {} })
    const refuse = () => {
      throw new Error('Cannot emit to a closed trajectory')
    }
    await expect(channel.send(preCallEvent(c, 'refused'), refuse)).rejects.toThrow('Cannot emit to a closed trajectory')
    expect(valueOf(await channel.send(preCallEvent(c, 'next')))).toBe('next')
  })

  it('poisoned while an event is answered: queued senders get the poison at once, the one answered once its handling ends', async () => {
    const channel = new EventChannel()
    const log: string[] = []
    const { answerer, release } = gated(log)
    const served = channel.serveEach(answerer)
    const inFlight = channel.send(preCallEvent(c, 'a'))
    const queued = channel.send(preCallEvent(c, 'b'))
    await tick()
    const poison = new Error('poison')
    channel.setError(poison)
    await expect(served).resolves.toBeUndefined()
    await expect(queued).rejects.toBe(poison)
    let settled = false
    void inFlight.catch(() => {
      settled = true
    })
    await tick()
    expect(settled).toBe(false)
    release.shift()!()
    await expect(inFlight).rejects.toBe(poison)
    expect(log).toEqual(['start a', 'handled a'])
  })

  it('poisoned while an event is answered: the poison wins over a failure or a wrong answer that comes after it', async () => {
    for (const ending of ['failure', 'wrong type'] as const) {
      const channel = new EventChannel()
      const release: Array<() => void> = []
      void channel.serveEach({
        answer: async (event) => {
          await new Promise<void>((r) => release.push(r))
          if (ending === 'failure') throw new Error('optimizer died after the poison')
          return runEndResponse(event)
        },
        handled: () => {},
      })
      const inFlight = channel.send(preCallEvent(c, 'a'))
      await tick()
      const poison = new Error('poison')
      channel.setError(poison)
      release.shift()!()
      await expect(inFlight, ending).rejects.toBe(poison)
    }
  })

  it('is exclusive: a channel served by an answerer cannot be received from or served again', async () => {
    const channel = new EventChannel()
    void channel.serveEach({ answer: plainResponse, handled: () => {} })
    await expect(channel.receive()).rejects.toThrow('EventChannel is served by a handler')
    await expect(channel.serveEach({ answer: plainResponse, handled: () => {} })).rejects.toThrow('EventChannel is already served')
  })
})

describe('responseAllowed', () => {
  it('agrees with RESPONSE_TYPES for every event type and response type', () => {
    const events: Event[] = [
      preCallEvent(c, 'r'),
      postCallEvent(c, 'r', 'a'),
      runStartEvent({ snapshot: () => [], drain: () => [] }),
      runEndEvent(null, { securityDomain: tag }),
    ]
    const responsesOf = (event: Event): EventResponse[] => [
      plainResponse(event),
      injection(events[0] as ControllablePreCallEvent, 'v'),
      noInjection(events[0] as ControllablePreCallEvent),
      runEndResponse(event),
    ]
    let checked = 0
    for (const event of events) {
      for (const response of responsesOf(event)) {
        const allowed = RESPONSE_TYPES[event.type]
        expect(responseAllowed(event, response), `${event.type} -> ${response.type}`).toBe(
          allowed === null || allowed.includes(response.type),
        )
        checked++
      }
    }
    expect(checked).toBe(16)
  })
})
