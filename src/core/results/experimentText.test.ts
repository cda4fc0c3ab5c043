/**
 * The manifest.json, result.json and attacker.json printers against the generic route they replaced: each file's
 * JSON shape (semantics §6, spelled out here), converted to the schema by asSchema and printed by pyDumps as
 * json.dumps(indent=2, ensure_ascii=False). Views, skipped tasks, experiments and offered surfaces are drawn at
 * random over the awkward values: floats Python and JavaScript print differently, non-ASCII and control characters,
 * nulls, no tasks. (The conformance test holds the manifest and result.json to a tree superred wrote.)
 */
import { describe, expect, it } from 'vitest'
import type { OfferedSurfaces } from '../engine/outcomes'
import { stubForest } from '../engine/testkit'
import { utcIso } from '../engine/time'
import type { Controllable, Observable } from '../engine/types'
import { scopeNames, type SecurityDomainTag } from '../tags'
import { attackerFileText, experimentText, manifestEntryText, manifestText, resultText, skippedEntryText } from './experimentText'
import type { ExperimentMeta } from './identityHash'
import { pyDumps, pyFloat } from './pyjson'
import { asSchema } from './schema4'
import { experimentJson } from './serialize'
import { goalHash } from './slug'
import { computeSummary, type TaskView } from './summary'
import { seededDraws } from '../../testing/seededRandom'

const STRINGS = [
  '',
  'plain',
  'line\nbreak\ttab',
  'quote " and \\ backslash',
  'ünïcödé ✓ 日本',
  'ctl \u0000\u001f\u007f',
  '😀 astral',
  '<script>alert(1)</script>',
  '{"json": "inside"}',
]
const FLOATS = [0, 1, -0, 0.5, 1e-7, 1e-5, 123456.789, 1e16, 2.5e20, NaN, Infinity, -Infinity, 0.1 + 0.2]
const COUNTS = [0, 1, 7, 1e21, 2.5]
const STATUSES = ['success', 'failed', 'error', 'timeout', 'timeout_empty', 'budget_exhausted', 'weird "status"']
const REASONS = ['success', 'max_runs', 'done', 'error', 'timeout', 'budget_exhausted', 'ünknown']

const generic = (kind: 'manifest' | 'result' | 'attacker', payload: Record<string, unknown>, schema: 4 | 5) =>
  pyDumps(asSchema(schema, kind, payload), { indent: 2, ensureAscii: false })

const entryShape = (v: TaskView) => ({
  index: v.index,
  goal: v.goal,
  goal_hash: v.goalHash,
  dir: v.dir,
  status: v.status,
  success: v.success,
  best_score: pyFloat(v.bestScore),
  stop_reason: v.stopReason,
  n_runs: v.nRuns,
  cost_usd: pyFloat(v.cost),
  has_error: v.error !== null,
  started_at: v.startedAt,
  ended_at: v.endedAt,
})
const skippedShape = (index: number, goal: string) => ({
  index,
  goal,
  goal_hash: goalHash(goal),
  dir: null,
  status: 'skipped',
  success: false,
  best_score: pyFloat(0),
  stop_reason: 'skipped',
  n_runs: 0,
  cost_usd: pyFloat(0),
  has_error: false,
  started_at: null,
  ended_at: null,
})

function draw(seed: number) {
  const { pick, next } = seededDraws(seed)
  const f = stubForest()
  const tags = [f.system, f.systemPrompt, f.user, f.inbox, f.web]
  const when = () => pick([null, '2026-12-01T09:00:00.123000', ...STRINGS])
  const views: TaskView[] = []
  const skipped: Array<[number, string]> = []
  for (let index = 1; index <= Math.floor(next() * 6); index++) {
    const goal = pick(STRINGS)
    if (next() < 0.2) skipped.push([index, goal])
    else {
      views.push({
        index,
        goal,
        goalHash: goalHash(goal),
        dir: `tasks/${String(index).padStart(5, '0')}__${pick(STRINGS)}`,
        status: pick(STATUSES),
        success: pick([true, false]),
        stopReason: pick(REASONS),
        bestScore: pick(FLOATS),
        nRuns: pick(COUNTS),
        calls: pick(COUNTS),
        cost: pick(FLOATS),
        error: pick([null, ...STRINGS]),
        startedAt: when(),
        endedAt: when(),
      })
    }
  }
  const meta: ExperimentMeta = {
    attacker: pick(STRINGS),
    target: 't',
    claim: pick(STRINGS),
    model: pick([null, ...STRINGS]),
    scope: tags.filter(() => next() < 0.4).map((t) => t.name),
    readOnly: [],
    scopeLabel: pick([null, ...STRINGS]),
    taskCostCapUsd: pick([null, ...FLOATS]),
    taskTimeCapS: pick([null, ...FLOATS]),
    maxRunsPerTask: pick(COUNTS),
    includeFeedback: pick([true, false]),
    concurrency: 4,
    nTasks: pick([null, 4]),
  }
  const domain = () => pick<SecurityDomainTag | null>([null, ...tags])
  const controllables: Controllable[] = Array.from({ length: Math.floor(next() * 3) }, () => ({
    name: pick(STRINGS),
    securityDomain: domain(),
    description: pick(STRINGS),
    valueType: pick(['text', 'json', ...STRINGS]),
  }))
  const observable = (): Observable => ({
    name: pick(STRINGS),
    securityDomain: domain(),
    description: pick(STRINGS),
    observableType: pick(STRINGS),
  })
  const offered: OfferedSurfaces = {
    controllables,
    observables: Array.from({ length: Math.floor(next() * 3) }, () => ({
      observable: observable(),
      content: pick<unknown>([null, ...STRINGS, 3, 0.5, ['a', 1.5], { k: 'v', n: null, deep: { x: [] } }]),
    })),
  }
  const some = () => new Set(tags.filter(() => next() < 0.4).reverse())
  return { views, skipped, meta, offered, scope: some(), readOnly: some(), started: new Date(pick([0, 1_764_547_200_123])) }
}

/** What the session hands manifestText: entries in index order, skipped tasks among them. */
function entriesOf(views: readonly TaskView[], skipped: ReadonlyArray<[number, string]>) {
  const texts: Array<[number, string]> = views.map((v) => [v.index, manifestEntryText(v)])
  for (const [index, goal] of skipped) texts.push([index, skippedEntryText(index, goal, goalHash(goal))])
  const shapes: Array<Record<string, unknown>> = [...views.map(entryShape), ...skipped.map(([i, g]) => skippedShape(i, g))]
  return {
    texts: texts.sort((a, b) => a[0] - b[0]).map((e) => e[1]),
    shapes: shapes.sort((a, b) => Number(a.index) - Number(b.index)),
  }
}

describe('experimentText', () => {
  it('prints manifest.json and result.json as the generic route does, in schema 5 and 4', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { views, skipped, meta, started } = draw(seed)
      const experiment = experimentJson(meta, 'a__t__c__no-llm', 'deadbeef')
      const summary = computeSummary(views, skipped.length)
      const { texts, shapes } = entriesOf(views, skipped)
      for (const schema of [5, 4] as const) {
        const printed = experimentText(experiment, schema)
        for (const [status, startedAt, completedAt] of [
          ['in_progress', null, null],
          ['complete', started, utcIso(started)],
        ] as const) {
          expect(
            manifestText({ status, experiment: printed, startedAt, completedAt, summary, entries: texts }, schema),
            `manifest, seed ${seed}, schema ${schema}`,
          ).toBe(
            generic(
              'manifest',
              {
                schema_version: 5,
                status,
                experiment,
                timing: { started_at: startedAt === null ? null : utcIso(startedAt), completed_at: completedAt },
                summary,
                tasks: shapes,
              },
              schema,
            ),
          )
        }
        expect(resultText(printed, started, '2026-12-01T10:00:00', summary, schema), `result, seed ${seed}, schema ${schema}`).toBe(
          generic(
            'result',
            { schema_version: 5, experiment, timing: { started_at: utcIso(started), completed_at: '2026-12-01T10:00:00' }, summary },
            schema,
          ),
        )
      }
    }
  })

  it('prints attacker.json as the generic route does, in schema 5 and 4', () => {
    const tagName = (t: SecurityDomainTag | null) => t?.name ?? null
    const descriptor = (d: Controllable | Observable) => ({
      name: d.name,
      security_domain: tagName(d.securityDomain),
      description: d.description,
    })
    for (let seed = 1; seed <= 200; seed++) {
      const { offered, scope, readOnly } = draw(seed)
      const shape = {
        schema_version: 5,
        scope: scopeNames(scope),
        read_only: scopeNames(readOnly),
        controllables: offered.controllables.map((c) => ({ ...descriptor(c), value_type: c.valueType })),
        observables: offered.observables.map((o) => ({
          observable: { ...descriptor(o.observable), observable_type: o.observable.observableType },
          content: o.content,
        })),
      }
      for (const schema of [5, 4] as const) {
        expect(attackerFileText(scope, readOnly, offered, schema), `attacker.json, seed ${seed}, schema ${schema}`).toBe(
          generic('attacker', shape, schema),
        )
      }
    }
  })

  it('leaves out of schema 4 what superred 0.3.0 does not write', () => {
    const { views, meta } = draw(5)
    const summary = computeSummary(views, 0)
    const print = (schema: 4 | 5) =>
      manifestText(
        {
          status: 'in_progress',
          experiment: experimentText(experimentJson(meta, 's', 'h'), schema),
          startedAt: null,
          completedAt: null,
          summary,
          entries: [],
        },
        schema,
      )
    // Keys of the experiment block and the summary (depth 2), read off the text: a drawn float can be NaN, which JSON.parse refuses.
    const keys = (text: string) => [...text.matchAll(/^ {4}"([a-z_]+)":/gm)].map((m) => m[1])
    expect(keys(print(5)).filter((k) => !keys(print(4)).includes(k))).toEqual(['task_time_cap_s', 'n_timeout', 'n_timeout_empty'])
  })

  it('prints a view again only when it is a new view: an entry is printed once per view object', () => {
    const { views } = draw(11)
    const v = views[0] ?? draw(12).views[0]
    expect(manifestEntryText(v)).toBe(manifestEntryText(v))
    // A task that lands again is a new view object, printed afresh.
    const again: TaskView = { ...v, status: 'success', nRuns: 42 }
    expect(manifestEntryText(again)).toContain('"n_runs": 42')
    expect(manifestEntryText(v)).not.toContain('"n_runs": 42')
  })
})
