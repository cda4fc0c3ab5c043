import { describe, expect, it } from 'vitest'
import { scopeOf, SecurityDomainTag } from '../tags'
import { injection, observableEvent, preCallEvent, runEndEvent, runStartEvent } from './events'
import { Trajectory } from './trajectory'
import { controllable, observable } from './types'

const system = new SecurityDomainTag('system')
const prompt = new SecurityDomainTag('system_prompt', system)
const user = new SecurityDomainTag('user')

describe('Trajectory', () => {
  it('keeps emit order; the view gets only covered items (descendants included), responses by their event', () => {
    const t = new Trajectory(scopeOf([system]))
    const pre = preCallEvent(controllable('p', prompt), 'r')
    const items = [observableEvent(observable('o', user), 1), pre, injection(pre, 'v'), runEndEvent(null, { securityDomain: system })]
    items.forEach(t.emit)
    expect(t.snapshot()).toEqual(items)
    expect(t.filtered.snapshot()).toEqual(items.slice(1))
  })

  it('snapshot does not move the cursor; drain returns what is new, on both views', () => {
    const t = new Trajectory(scopeOf([user]))
    const a = observableEvent(observable('o', user), 'a')
    const b = observableEvent(observable('o', user), 'b')
    t.emit(a)
    expect(t.drain()).toEqual([a])
    expect(t.filtered.drain()).toEqual([a])
    t.emit(b)
    expect(t.snapshot()).toEqual([a, b])
    expect(t.drain()).toEqual([b])
    expect(t.drain()).toEqual([])
    expect(t.filtered.drain()).toEqual([b])
  })

  it('the view shares the list until the first hidden item, then keeps its own: reads and drains are unchanged', () => {
    const t = new Trajectory(scopeOf([user]))
    const seen = (n: string) => observableEvent(observable(n, user), n)
    const [a, b, c] = [seen('a'), seen('b'), seen('c')]
    const hidden = observableEvent(observable('h', system), 'h')
    t.emit(a)
    expect(t.filtered.drain()).toEqual([a])
    t.emit(b)
    t.emit(hidden)
    t.emit(c)
    expect(t.snapshot()).toEqual([a, b, hidden, c])
    expect(t.filtered.snapshot()).toEqual([a, b, c])
    expect(t.filtered.drain()).toEqual([b, c])
    t.close()
    expect(t.keptItems()).toEqual([a, b, hidden, c])
    expect(t.keptView()).toEqual([a, b, c])

    const open = new Trajectory(scopeOf([user]))
    open.emit(a)
    open.close()
    // Nothing hidden: one list for both.
    expect(open.keptView()).toBe(open.keptItems())
  })

  it('before it is closed, what a run keeps is a copy of both lists', () => {
    const t = new Trajectory(scopeOf([user]))
    const a = observableEvent(observable('a', user), 'a')
    t.emit(a)
    const items = t.keptItems()
    const view = t.keptView()
    t.emit(observableEvent(observable('b', user), 'b'))
    expect([items, view]).toEqual([[a], [a]])
  })

  it('refuses items without a domain and emits after close', () => {
    const t = new Trajectory(scopeOf([user]))
    expect(() => t.emit(runStartEvent(t.filtered))).toThrow('Cannot persist RunStartEvent without a security_domain')
    expect(() => t.emit(observableEvent(observable('o', null), 1))).toThrow('Cannot persist ObservableEvent without a security_domain')
    t.close()
    expect(() => t.emit(observableEvent(observable('o', user), 1))).toThrow('Cannot emit to a closed trajectory')
  })

  it('a look-alike scope sees nothing (identity, not equality)', () => {
    const t = new Trajectory(scopeOf([new SecurityDomainTag('user')]))
    t.emit(observableEvent(observable('o', user), 1))
    expect(t.filtered.snapshot()).toEqual([])
  })

  it('the view exposes only its two read methods: no way back to the full trajectory', () => {
    const t = new Trajectory(scopeOf([user]))
    expect(Object.keys(t.filtered)).toEqual([])
    expect(() => new Trajectory().filtered).toThrow('No filtered view')
  })
})
