import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { templateOptimizerFactory } from '../../attackers'
import { claimFromFile, parseClaimFile } from '../../claims'
import { ASSISTANT_FOREST, REFERENCE_TARGETS } from '../../reference-targets'
import { Controller, runAll, targetFactory } from '../engine'
import { CHATBOT_FOREST, scopeOf } from '../tags'
import type { ModelOutcome } from './analysis'
import { contrastFill, contrastWords, frontierWords, paintForest, paintFrontier } from './paint'

const m = (key: string, scope: string[], nSuccess: number, nCompleted: number, readOnly: string[] = []): ModelOutcome => ({
  key,
  scope,
  readOnly,
  nSuccess,
  nCompleted,
})

describe('painting the forest: with the tag against without it', () => {
  it('pools the tasks of the models whose scope or read_only covers each tag against the others (a granted parent covers its subtree)', () => {
    const paint = paintForest(CHATBOT_FOREST, [
      m('a', ['user'], 1, 3),
      m('b', ['system'], 0, 3),
      m('c', ['system_prompt'], 2, 2, ['user']),
      m('d', ['model'], 0, 0), // no completed task: on neither side
    ])
    expect(paint.get('user')).toMatchObject({
      with: { models: 2, broken: 2, successes: 3, completed: 5 },
      without: { models: 1, broken: 0, successes: 0, completed: 3 },
    })
    expect(paint.get('system')).toMatchObject({
      with: { models: 1, successes: 0, completed: 3 },
      without: { models: 2, successes: 3, completed: 5 },
    })
    expect(paint.get('system_prompt')).toMatchObject({ with: { models: 2, broken: 1, successes: 2, completed: 5 } })
    expect(paint.get('model')?.with.models).toBe(1)
    // Every side has few tasks: nothing is sure at 95%, and nothing is painted as a success.
    expect([...paint.values()].map((p) => p.effect)).toEqual(Array(5).fill('no-difference'))
  })

  it('paints a tag as raising the ASR only when the difference is sure at 95%, lower when it is sure the other way', () => {
    const models = [
      ...Array.from({ length: 10 }, (_, i) => m(`u${i}`, ['user'], 3, 3)),
      ...Array.from({ length: 10 }, (_, i) => m(`s${i}`, ['system'], 0, 3)),
    ]
    const paint = paintForest(CHATBOT_FOREST, models)
    expect(paint.get('user')!.effect).toBe('raises')
    expect(paint.get('user')!.difference!.low).toBeGreaterThan(0.8)
    expect(paint.get('system')!.effect).toBe('lowers')
    expect(contrastFill(paint.get('system')!)).toBe('#d0ebff')
    expect(contrastWords(paint.get('user')!).lines).toEqual(['with: 30/30 (88–100%)', 'without: 0/30 (≤ 12%)', 'raises the ASR'])
    expect(contrastWords(paint.get('user')!).title).toBe(
      'threat models that grant it: 10, 100% (30 of 30 tasks, 95% CI 88–100%); ' +
        'that do not: 10, not broken in 30 tasks (≤ 12% at 95%); with − without: +100 points, 95% CI +83 to +100. Raises the ASR.',
    )
  })

  it('has nothing to compare for a tag no model grants, or every model grants', () => {
    const paint = paintForest(CHATBOT_FOREST, [m('a', ['user'], 1, 1), m('b', ['user', 'model'], 0, 2)])
    expect(paint.get('system')).toMatchObject({
      with: { models: 0, completed: 0 },
      without: { models: 2, completed: 3 },
      difference: null,
      effect: 'unknown',
    })
    expect(contrastWords(paint.get('system')!).lines).toEqual(['with: no results', 'without: 1/3 (6–80%)', 'granted by no model'])
    expect(contrastWords(paint.get('user')!).lines[2]).toBe('granted by every model')
    expect(contrastFill(paint.get('user')!)).toBe('#e9ecef')
  })
})

describe('painting the forest: the frontier', () => {
  it('says per tag whether a minimal winner writes it, only reads it, or none needs it', () => {
    const paint = paintFrontier(CHATBOT_FOREST, [
      { scope: ['user'], readOnly: [] },
      { scope: ['system'], readOnly: ['user'] },
    ])
    expect(paint.get('user')).toEqual({ writes: 1, reads: 1, winners: 2, role: 'written' })
    expect(paint.get('system_prompt')).toMatchObject({ writes: 1, role: 'written' })
    expect(frontierWords(paint.get('user')!).lines).toEqual(['written by 1 of 2 minimal winners', 'read only by 1 more'])
    const read = paintFrontier(CHATBOT_FOREST, [{ scope: ['system_prompt'], readOnly: ['user'] }])
    expect(frontierWords(read.get('user')!).lines).toEqual(['read only by 1 of 1 minimal winner'])
    expect(frontierWords(read.get('model')!).lines).toEqual(['not needed by any minimal winner'])
    expect(frontierWords(paintFrontier(CHATBOT_FOREST, []).get('user')!).lines).toEqual(['no threat model won'])
  })
})

describe('a tag that grants nothing is never painted as a success (issue 31, on the demo assistant)', () => {
  /**
   * The assistant's `model_identity` is observable only: it lets the attacker
   * know which policy runs, and write nothing. Sweep every combination of it
   * with `inbox` and `user` (wins come through `user`, and through `inbox`
   * against the undefended task), against the real in-process assistant with
   * the exfiltration claim and a goal-only payload.
   */
  it('paints model_identity as no difference, where pooling painted it as a 56% success, and user as raising the ASR', async () => {
    const make = REFERENCE_TARGETS.assistant.factory()
    const domain = make().securityDomain
    const file = parseClaimFile(readFileSync('public/claims/assistant-exfiltration.json', 'utf8'), 'assistant-exfiltration.json')
    const tags = ['inbox', 'model_identity', 'user']
    const scopes = Array.from({ length: 7 }, (_, i) => tags.filter((_, b) => ((i + 1) & (1 << b)) !== 0))
    const controllers = scopes.map(
      (scope) =>
        new Controller({
          optimizerFactory: templateOptimizerFactory({ templates: ['{goal}'] }),
          targetFactory: targetFactory(make, 4),
          securityClaim: claimFromFile(file),
          scope: scopeOf(scope.map((n) => domain.get(n)!)),
          readOnly: scopeOf([]),
          maxRunsPerTask: 1,
          storage: null,
          domain,
          attackerLabel: 'template',
          targetLabel: 'redscope-assistant',
          claimLabel: file.name,
        }),
    )
    const results = await runAll(controllers, { concurrency: 4 })
    const outcomes = results.map((r, i) => ({
      key: scopes[i].join('+'),
      scope: scopes[i],
      readOnly: [],
      nSuccess: r.taskResults.filter((t) => t.success).length,
      nCompleted: r.taskResults.filter((t) => t.stopReason !== 'error').length,
    }))
    // model_identity alone wins nothing: what it is painted with came through the other tags.
    expect(outcomes.find((o) => o.key === 'model_identity')).toMatchObject({ nSuccess: 0, nCompleted: 4 })
    const paint = paintForest(ASSISTANT_FOREST, outcomes)
    const identity = paint.get('model_identity')!
    expect(identity.with.successes / identity.with.completed).toBeGreaterThan(0.5)
    expect(identity.effect).not.toBe('raises')
    expect(identity.effect).toBe('no-difference')
    expect(contrastFill(identity)).toBe('#f8f9fa')
    expect(contrastWords(identity).lines[2]).toBe('no measured difference')
    expect(paint.get('user')!.effect).toBe('raises')
  })
})
