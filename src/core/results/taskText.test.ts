/**
 * The task.json and iterations.json printers against the generic route they replaced: the files' JSON shapes
 * (semantics §6, spelled out here), converted to the schema by asSchema and printed by pyDumps as
 * json.dumps(indent=2, ensure_ascii=False). Task results are drawn at random over the awkward values: floats Python
 * and JavaScript print differently, non-ASCII and control characters, null domains and caps, sub-scores, errors,
 * empty and unsorted scopes, no runs. (The conformance test holds both files to a tree superred wrote.)
 */
import { describe, expect, it } from 'vitest'
import type { RunResult, TaskResult } from '../engine/outcomes'
import { ScriptedTask, stubForest } from '../engine/testkit'
import { utcIso } from '../engine/time'
import { evaluationResult, score, STOP_REASONS, type EvaluationResult, type LLMUsage, type Score } from '../engine/types'
import { scopeNames, type SecurityDomainTag } from '../tags'
import type { ExperimentMeta } from './identityHash'
import { pyDumps, pyFloat } from './pyjson'
import { asSchema } from './schema4'
import { goalHash, runFileName } from './slug'
import { iterationsFileText, measuredRuns, taskFileText, taskStatus } from './taskText'
import { seededDraws } from '../../testing/seededRandom'

const name = (t: SecurityDomainTag | null) => t?.name ?? null
const scoreShape = (s: Score) => ({ name: s.name, value: pyFloat(s.value), security_domain: name(s.securityDomain) })
const evaluationShape = (e: EvaluationResult) => ({
  success: e.success,
  primary_score: scoreShape(e.primaryScore),
  sub_scores: Object.fromEntries(Object.entries(e.subScores).map(([k, v]) => [k, scoreShape(v)])),
  rationale: e.rationale,
})
const usageShape = (u: LLMUsage) => ({ calls: u.calls, cost: pyFloat(u.cost) })
const timingShape = (a: Date, b: Date) => ({
  started_at: utcIso(a),
  ended_at: utcIso(b),
  duration_s: pyFloat((b.getTime() - a.getTime()) / 1000),
})

function taskShape(tr: TaskResult, index: number, meta: ExperimentMeta) {
  const goal = tr.task.goal.description
  return {
    schema_version: 5,
    index,
    goal,
    goal_hash: goalHash(goal),
    scope: scopeNames(tr.scope),
    read_only: scopeNames(tr.readOnly),
    llm_config: meta.model === null ? null : { model: meta.model },
    task_cost_cap_usd: pyFloat(meta.taskCostCapUsd),
    task_time_cap_s: pyFloat(meta.taskTimeCapS),
    status: taskStatus(tr.success, tr.stopReason, measuredRuns(tr)),
    success: tr.success,
    stop_reason: tr.stopReason,
    best_score: scoreShape(tr.bestScore),
    best_evaluation: evaluationShape(tr.bestEvaluation),
    n_runs: tr.runs.length,
    n_measured_runs: measuredRuns(tr),
    llm_usage: usageShape(tr.llmUsage),
    timing: timingShape(tr.startedAt, tr.endedAt),
    error: tr.error,
  }
}

const iterationsShape = (tr: TaskResult, index: number) => ({
  schema_version: 5,
  index,
  goal: tr.task.goal.description,
  runs: tr.runs.map((r, i) => ({
    run_number: i + 1,
    primary_score: pyFloat(r.evaluation.primaryScore.value),
    success: r.evaluation.success,
    evaluated: r.evaluated,
    errored: r.errored,
    done: r.done,
    usage_delta: usageShape(r.runUsageDelta),
    usage_cumulative: usageShape(r.llmUsage),
    timing: timingShape(r.startedAt, r.endedAt),
    trajectory: `trajectories/${runFileName(i + 1)}`,
  })),
})

const generic = (kind: 'task' | 'iterations', payload: Record<string, unknown>, schema: 4 | 5) =>
  pyDumps(asSchema(schema, kind, payload), { indent: 2, ensureAscii: false })

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
const TIMES = [0, 1, 1_764_547_200_123, 1_764_547_200_999]

function draw(seed: number) {
  const { pick, next } = seededDraws(seed)
  const f = stubForest()
  const tags = [f.system, f.systemPrompt, f.user, f.inbox, f.web]
  const domain = () => pick([null, ...tags])
  const anyScore = (primary = false) => score(pick(FLOATS), primary ? null : domain(), pick(['primary', 'leak', 'ü']))
  const evaluation = () =>
    evaluationResult({
      success: pick([true, false]),
      primaryScore: anyScore(true),
      rationale: pick(STRINGS),
      subScores: pick<Record<string, Score>>([{}, { a: anyScore() }, { '2': anyScore(), z: anyScore(), '10': anyScore() }]),
    })
  const usage = () => ({ calls: pick(COUNTS), cost: pick(FLOATS) })
  const when = () => new Date(pick(TIMES))
  const run = (): RunResult => ({
    runNumber: 1,
    trajectory: [],
    attackerView: [],
    evaluation: evaluation(),
    llmUsage: usage(),
    runUsageDelta: usage(),
    startedAt: when(),
    endedAt: when(),
    evaluated: pick([true, false]),
    errored: pick([true, false]),
    done: pick([true, false]),
  })
  const some = () => new Set(tags.filter(() => next() < 0.4).reverse())
  const tr: TaskResult = {
    task: new ScriptedTask(pick(STRINGS), () => evaluation()),
    index: 1,
    runs: Array.from({ length: Math.floor(next() * 4) }, run),
    bestScore: anyScore(),
    bestEvaluation: evaluation(),
    success: pick([true, false]),
    llmUsage: usage(),
    stopReason: pick(STOP_REASONS),
    scope: some(),
    readOnly: some(),
    error: pick([null, ...STRINGS]),
    startedAt: when(),
    endedAt: when(),
  }
  const meta: ExperimentMeta = {
    attacker: 'a',
    target: 't',
    claim: 'c',
    model: pick([null, ...STRINGS]),
    scope: [],
    readOnly: [],
    scopeLabel: null,
    taskCostCapUsd: pick([null, ...FLOATS]),
    taskTimeCapS: pick([null, ...FLOATS]),
    maxRunsPerTask: 3,
    includeFeedback: true,
    concurrency: 1,
    nTasks: null,
  }
  return { tr, meta, index: pick([1, 2, 40, 12345]) }
}

describe('taskText', () => {
  it('prints task.json and iterations.json as the generic route does, in schema 5 and 4', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { tr, meta, index } = draw(seed)
      for (const schema of [5, 4] as const) {
        const task = taskFileText(tr, index, meta, schema)
        expect(task.text, `task.json, seed ${seed}, schema ${schema}`).toBe(generic('task', taskShape(tr, index, meta), schema))
        expect(task.goalHash).toBe(goalHash(tr.task.goal.description))
        expect(task.status).toBe(taskStatus(tr.success, tr.stopReason, measuredRuns(tr)))
        expect(iterationsFileText(tr, index, schema), `iterations.json, seed ${seed}, schema ${schema}`).toBe(
          generic('iterations', iterationsShape(tr, index), schema),
        )
      }
    }
  })

  it('leaves out what superred 0.3.0 does not write in schema 4 only', () => {
    const { tr, meta } = draw(3)
    // The file's own keys (at depth 1), read off the text: a drawn float can be NaN, which JSON.parse refuses.
    const keys = (text: string) => [...text.matchAll(/^ {2}"([a-z_]+)":/gm)].map((m) => m[1])
    const five = taskFileText(tr, 1, meta, 5).text
    const four = taskFileText(tr, 1, meta, 4).text
    expect(keys(five).filter((k) => !keys(four).includes(k))).toEqual(['task_time_cap_s', 'n_measured_runs'])
    expect(keys(five)).toHaveLength(19)
    expect([five, four].map((t) => /"schema_version": (\d)/.exec(t)?.[1])).toEqual(['5', '4'])
  })
})
