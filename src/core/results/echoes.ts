/**
 * The echo files (redscope extras, see format.ts): per task, each echoed run with its evidence, the injections
 * that held it and the claim's own verdict; per experiment, which tasks' runs were echoes.
 */
import type { RunResult } from '../engine/outcomes'
import type { EvaluationResult, Score } from '../engine/types'
import { pyFloat } from './pyjson'
import { pyDumps } from './pyjson'
import type { ResultsSchemaVersion } from './format'

const dump = (payload: unknown) => pyDumps(payload, { indent: 2, ensureAscii: false })

const scoreJson = (s: Score) => ({ name: s.name, value: pyFloat(s.value), security_domain: s.securityDomain?.name ?? null })

function evaluationJson(e: EvaluationResult) {
  return {
    success: e.success,
    primary_score: scoreJson(e.primaryScore),
    sub_scores: Object.fromEntries(Object.entries(e.subScores).map(([k, s]) => [k, scoreJson(s)])),
    rationale: e.rationale,
  }
}

/** The echoed runs' numbers (1-based, as the files number them). */
export function echoedRunNumbers(runs: readonly RunResult[]): number[] {
  const out: number[] = []
  runs.forEach((r, i) => {
    if (r.echo) out.push(i + 1)
  })
  return out
}

/** A task's echoes.json, or null when none of its runs was an echo (then no file is written). */
export function taskEchoesText(runs: readonly RunResult[], countEchoes: boolean, schema: ResultsSchemaVersion): string | null {
  const echoed = runs.map((r, i) => ({ r, n: i + 1 })).filter(({ r }) => r.echo)
  if (echoed.length === 0) return null
  return dump({
    schema_version: schema,
    count_echoes: countEchoes,
    runs: echoed.map(({ r, n }) => ({
      run_number: n,
      counted: r.echo!.counted,
      evidence: { where: r.echo!.evidence.where, texts: [...r.echo!.evidence.texts] },
      injections: r.echo!.injections.map((i) => ({ controllable: i.controllable, value: i.value })),
      claimed: evaluationJson(r.echo!.claimed),
    })),
  })
}

/** The experiment's echoes.json: the tasks with echoed runs, by index. */
export function experimentEchoesText(
  byTask: ReadonlyMap<number, readonly number[]>,
  countEchoes: boolean,
  schema: ResultsSchemaVersion,
): string {
  const tasks = [...byTask]
    .filter(([, runs]) => runs.length > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([index, runs]) => ({ index, runs: [...runs] }))
  return dump({ schema_version: schema, count_echoes: countEchoes, tasks })
}
