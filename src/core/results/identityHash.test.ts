import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { experimentDirName, identityHash, type ExperimentMeta } from './identityHash'
import { pyDumps, pyFloat, pyFloatRepr } from './pyjson'
import { sha256Hex } from './sha256'

const FIXTURE = join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example')

const base: ExperimentMeta = {
  attacker: 'scripted',
  target: 'stub-agent',
  claim: 'leak',
  model: null,
  scope: ['user'],
  readOnly: ['system'],
  scopeLabel: null,
  taskCostCapUsd: null,
  taskTimeCapS: null,
  maxRunsPerTask: 2,
  includeFeedback: true,
  concurrency: 1,
  nTasks: 1,
}

describe('identity hash', () => {
  it('reproduces the folder name superred wrote in the fixture tree', () => {
    const index = JSON.parse(readFileSync(join(FIXTURE, 'experiments.json'), 'utf8'))
    const e = index.experiments[0].experiment
    const meta: ExperimentMeta = {
      attacker: e.attacker,
      target: e.target,
      claim: e.claim,
      model: e.model,
      scope: e.scope,
      readOnly: e.read_only,
      scopeLabel: e.scope_label,
      taskCostCapUsd: e.task_cost_cap_usd,
      taskTimeCapS: e.task_time_cap_s,
      maxRunsPerTask: e.max_runs_per_task,
      includeFeedback: e.include_feedback,
      concurrency: e.concurrency,
      nTasks: e.n_tasks,
    }
    expect(identityHash(meta)).toBe('44a31aa2')
    expect(experimentDirName(meta)).toBe(index.experiments[0].dir)
  })

  it('ignores what superred leaves out of the identity, and changes with what it puts in', () => {
    const h = identityHash(base)
    expect(identityHash({ ...base, taskTimeCapS: 30, concurrency: 8, nTasks: 99 })).toBe(h)
    expect(identityHash({ ...base, scope: ['user', 'a'] })).toBe(identityHash({ ...base, scope: ['a', 'user'] }))
    expect(identityHash({ ...base, maxRunsPerTask: 3 })).not.toBe(h)
    expect(identityHash({ ...base, taskCostCapUsd: 0.5 })).not.toBe(h)
  })

  it('hashes the exact bytes Python json.dumps(sort_keys=True, separators=(",",":")) gives', () => {
    // Bytes as printed by CPython for this dict (the cap is a float: 1.0, not 1).
    const python =
      '{"attacker":"\\u00fcber","claim":"leak","include_feedback":false,"max_runs_per_task":5,' +
      '"model":"gpt-4o","read_only":[],"scope":["a","b"],"scope_label":null,"target":"t","task_cost_cap_usd":1.0}'
    const ours = pyDumps(
      {
        attacker: 'über',
        target: 't',
        claim: 'leak',
        model: 'gpt-4o',
        scope: ['a', 'b'],
        read_only: [],
        scope_label: null,
        task_cost_cap_usd: pyFloat(1),
        max_runs_per_task: 5,
        include_feedback: false,
      },
      { sortKeys: true },
    )
    expect(ours).toBe(python)
  })
})

describe('python float repr', () => {
  it.each([
    [0.5, '0.5'],
    [1, '1.0'],
    [0, '0.0'],
    [100, '100.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [0.000919, '0.000919'],
    [123456789012345.6, '123456789012345.6'],
    [-2.5, '-2.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e22, '1e+22'],
    [2.5e-7, '2.5e-07'],
  ])('%s → %s', (x, repr) => {
    expect(pyFloatRepr(x)).toBe(repr)
  })

  it('round-trips every finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Object.is(Number(pyFloatRepr(x)), x)).toBe(true)
      }),
    )
  })
})

describe('sha256', () => {
  it('matches node:crypto on arbitrary text, including astral characters and block boundaries', () => {
    for (const text of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'ü😀', 'x'.repeat(1000)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
      }),
      { numRuns: 200 },
    )
  })
})
