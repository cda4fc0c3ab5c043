// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseClaimFile } from '../../../claims'
import { checkClaim, claimFileText, draftFromClaimFile } from './claimDraft'
import { emptyEvaluator } from './setupTypes'

describe('claim table', () => {
  it('every shipped claim survives the round trip through the table unchanged', () => {
    const files = readdirSync('public/claims').filter((f) => f.endsWith('.json') && f !== 'index.json')
    expect(files.length).toBeGreaterThanOrEqual(6)
    for (const f of files) {
      const file = parseClaimFile(readFileSync(`public/claims/${f}`, 'utf8'), f)
      const draft = draftFromClaimFile(file, f)
      const check = checkClaim(draft)
      expect([...check.issues], f).toEqual([])
      expect(check.file).toEqual(file)
      expect(parseClaimFile(claimFileText(draft), 'export')).toEqual(file)
    }
  })

  it('puts each problem beside its cell as it is typed', () => {
    const check = checkClaim({
      name: ' ',
      description: '',
      target: '',
      origin: '',
      tasks: [
        { id: 'a', goal: '', config: 'defence=none\noops', evaluator: { ...emptyEvaluator(), query: 'sent', pattern: '(' } },
        {
          id: 'b',
          goal: 'g',
          config: '',
          evaluator: { ...emptyEvaluator(), type: 'trajectory_match', observable: 'reply', pattern: 'x', flags: 'q' },
        },
        { id: 'c', goal: 'g', config: '', evaluator: { ...emptyEvaluator(), type: 'query_evaluation', query: 'q', params: 'goal' } },
      ],
    })
    expect(check.file).toBeNull()
    expect(Object.fromEntries(check.issues)).toEqual({
      name: 'must name the claim',
      'tasks.0.goal': 'must describe the attack goal',
      'tasks.0.config': 'line 2: expected name=value',
      'tasks.0.evaluator.pattern': expect.stringMatching(/^not a valid regular expression/),
      'tasks.1.evaluator.flags': expect.stringMatching(/is not a set of regular expression flags/),
      'tasks.2.evaluator.params': 'line 1: expected name=value',
    })
  })

  it('a "__proto__" config name is an issue on its cell, not a name that vanishes', () => {
    const check = checkClaim({
      name: 'x',
      description: '',
      target: '',
      origin: '',
      tasks: [
        {
          id: 'a',
          goal: 'g',
          config: 'defence=none\n__proto__=on',
          evaluator: { ...emptyEvaluator(), type: 'query_evaluation', query: 'q' },
        },
      ],
    })
    expect(check.file).toBeNull()
    expect(check.issues.get('tasks.0.config')).toBe('line 2: __proto__ is not a name a claim can use')
  })

  it('an empty table is a claim without tasks', () => {
    const check = checkClaim({ name: 'x', description: '', target: '', origin: '', tasks: [] })
    expect(check.issues.get('tasks')).toBe('a claim needs at least one task')
  })

  it('an llm_judge row takes criteria, optional observables and an optional query', () => {
    const check = checkClaim({
      name: 'j',
      description: '',
      target: '',
      origin: '',
      tasks: [
        {
          id: 'a',
          goal: 'leak',
          config: '',
          evaluator: {
            ...emptyEvaluator(),
            type: 'llm_judge',
            criteria: 'the reply holds the secret',
            observables: 'reply, reasoning',
            query: 'last_reply',
          },
        },
      ],
    })
    expect(check.file?.tasks[0].evaluator).toEqual({
      type: 'llm_judge',
      criteria: 'the reply holds the secret',
      observables: ['reply', 'reasoning'],
      query: { name: 'last_reply', params: {} },
    })
  })
})
