import { describe, expect, it } from 'vitest'
import { SecurityDomainTag } from '../tags'
import { SecurityClaim, singletonTargetFactory, targetFactory, type Task } from './target'
import { StubTarget } from './testkit'
import { evaluationResult, score } from './types'

const task = (goal: string): Task => ({
  goal: { description: goal },
  configureTarget: () => {},
  evaluate: async () => evaluationResult({ success: false, primaryScore: score(0) }),
})

describe('SecurityClaim', () => {
  it('is built only through fromTasks / fromClaims, with the reference messages', () => {
    expect(() => new SecurityClaim(Symbol('x'), () => [], 'x')).toThrow(
      new TypeError('Use SecurityClaim.from_tasks() or SecurityClaim.from_claims()'),
    )
    expect(() => SecurityClaim.fromTasks([])).toThrow('At least one task required')
    expect(() => SecurityClaim.fromClaims([])).toThrow('At least one claim required')
  })

  it('iterates repeatedly; fromClaims chains in order, lazily', () => {
    const a = SecurityClaim.fromTasks([task('a1'), task('a2')])
    const b = SecurityClaim.fromTasks([task('b1')])
    const both = SecurityClaim.fromClaims([a, b], 'both')
    const goals = () => [...both].map((t) => t.goal.description)
    expect(goals()).toEqual(['a1', 'a2', 'b1'])
    expect(goals()).toEqual(['a1', 'a2', 'b1'])
    expect(both.name).toBe('both')
  })
})

describe('TargetFactory', () => {
  it('refuses a concurrency below 1; singleton pins it to 1 and returns the same instance', async () => {
    expect(() => targetFactory(() => new StubTarget(), 0)).toThrow('TargetFactory.concurrency must be at least 1')
    const t = new StubTarget()
    const f = singletonTargetFactory(t)
    expect(f.concurrency).toBe(1)
    expect(await f.create()).toBe(await f.create())
  })
})

describe('EvaluationResult', () => {
  it('refuses a primary score with a domain, allows domains on sub-scores', () => {
    const child = new SecurityDomainTag('child', new SecurityDomainTag('root'))
    expect(() => evaluationResult({ success: true, primaryScore: score(1, child) })).toThrow(
      "primary_score must not carry a security_domain (got SecurityDomainTag(name='child', parent=SecurityDomainTag(name='root', parent=None)))",
    )
    const ok = evaluationResult({ success: true, primaryScore: score(1), subScores: { s: score(0.5, child, 's') } })
    expect(ok).toMatchObject({ rationale: '', subScores: { s: { value: 0.5, name: 's' } } })
    expect(score(0.3)).toEqual({ value: 0.3, securityDomain: null, name: 'primary' })
  })
})
