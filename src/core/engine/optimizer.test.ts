import { describe, expect, it } from 'vitest'
import { scopeOf, SecurityDomainTag } from '../tags'
import { EventChannel } from './channel'
import { plainResponse, runEndEvent, runEndResponse, runStartEvent, type Event, type EventResponse } from './events'
import { BaseOptimizer } from './optimizer'
import { Trajectory } from './trajectory'

const tag = new SecurityDomainTag('user')

class Recorder extends BaseOptimizer {
  failOnEnd = false
  currentAtEvent: Array<boolean> = []
  async onEvent(event: Event): Promise<EventResponse> {
    this.currentAtEvent.push(this.currentTrajectory !== null)
    if (event.type === 'RunEndEvent') {
      if (this.failOnEnd) throw new Error('end failed')
      return runEndResponse(event)
    }
    return plainResponse(event)
  }
}

describe('BaseOptimizer dispatch', () => {
  it('sets the current trajectory on RunStart and archives it on RunEnd, also when onEvent throws', async () => {
    const o = new Recorder()
    const channel = new EventChannel()
    const running = o.run(channel)
    const t1 = new Trajectory(scopeOf([tag]))
    await channel.send(runStartEvent(t1.filtered))
    expect(o.currentTrajectory).toBe(t1.filtered)
    await channel.send(runEndEvent(null, { securityDomain: tag }))
    expect(o.currentTrajectory).toBeNull()
    expect(o.pastTrajectories).toEqual([t1.filtered])
    o.failOnEnd = true
    const t2 = new Trajectory(scopeOf([tag]))
    await channel.send(runStartEvent(t2.filtered))
    await expect(channel.send(runEndEvent(null, { securityDomain: tag }))).rejects.toThrow('end failed')
    await expect(running).rejects.toThrow('end failed')
    expect(o.pastTrajectories).toEqual([t1.filtered, t2.filtered])
    expect(o.currentAtEvent).toEqual([true, true, true, true])
    expect(() => new Recorder().llm).toThrow('llm is available after initialize()')
  })
})

describe('BaseOptimizer with its own dispatch', () => {
  it('is handed each envelope through the override, one at a time, and the lifecycle still runs through super', async () => {
    const order: string[] = []
    class Logged extends Recorder {
      protected override async dispatch(envelope: Parameters<Recorder['dispatch']>[0]): Promise<void> {
        order.push(`before ${envelope.event.type}`)
        await super.dispatch(envelope)
        await new Promise((r) => setTimeout(r, 1))
        order.push(`after ${envelope.event.type}`)
      }
    }
    const o = new Logged()
    const channel = new EventChannel()
    const running = o.run(channel)
    const t = new Trajectory(scopeOf([tag]))
    // Sent together: the second is handed over only once the first override call has returned.
    const both = Promise.all([channel.send(runStartEvent(t.filtered)), channel.send(runEndEvent(null, { securityDomain: tag }))])
    await both
    channel.close()
    await running
    expect(order).toEqual(['before RunStartEvent', 'after RunStartEvent', 'before RunEndEvent', 'after RunEndEvent'])
    expect(o.pastTrajectories).toEqual([t.filtered])
  })
})
