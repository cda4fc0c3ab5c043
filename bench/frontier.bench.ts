/**
 * What the frontier search saves. Synthetic oracles first (monotone: a threat
 * model wins when it covers one of k random generators), on the assistant's,
 * the chatbot's and superred's AgentDojo forest: evaluations against the
 * number of threat models and against the bound of docs/frontier.md, and the
 * search's time against checking every threat model with the same oracle
 * (the baseline, in the same command). Then the real thing on the demo
 * assistant: `redscope frontier` against `redscope sweep --all`, same
 * attacker, same target process, time to the answer as a ratio.
 * The same with read-only grants (--read-only, 10,583 threat models on the
 * assistant, whose full sweep is not repeated here: docs/frontier.md).
 * Then a noisy target (--confidence): the runs a sequential test spends
 * against a sweep of every threat model with the same repeats, on the
 * stochastic refund agent's odds and on AgentDojo's forest with a noisy
 * synthetic oracle; the confidence sequence against Clopper-Pearson bounds
 * split over the looks (Bonferroni); and live, `redscope frontier
 * --confidence` against the served stochastic agent.
 * Printed, never asserted: `npm run bench -- frontier`.
 * FRONTIER_BENCH_SKIP_LIVE=1 leaves out the live parts (a few minutes of runs).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decide, SCAN_LIMIT, searchFrontierSync, type SequentialTest } from '../src/core/frontier'
import { coverLeq, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../src/core/lattice'
import { AGENTDOJO_FOREST, buildDomain, CHATBOT_FOREST, type Forest } from '../src/core/tags'
import { ASSISTANT_FOREST } from '../src/reference-targets/assistant/forest'
import { CliProcesses } from '../src/testing/cliProcesses'
import { main } from '../src/cli/main'
import { seededRandom as rng } from '../src/testing/seededRandom'
import { STOCHASTIC_FOREST } from '../src/reference-targets/stochastic/forest'
import { refundChanceOfTags } from '../src/reference-targets/stochastic/odds'
import { row, time } from './util'

/** k generators: random small threat models (1 to 2 tags, leaves favoured as injections are); with read-only grants, each tag written or only read. */
function generators(space: SearchSpace, base: ThreatModelLattice, k: number, seed: number): Cover[] {
  const next = rng(seed)
  const tags = base.preorder.map((t) => t.name)
  return Array.from({ length: k }, () => {
    const size = next() < 0.6 ? 1 : 2
    const names = [...new Set(Array.from({ length: size }, () => tags[Math.floor(next() * tags.length)]))]
    // A scope with a tag and its ancestor is not an antichain: the cover keeps the ancestor's, which holds both.
    if (!space.readOnly) return space.coverOfModel({ scope: names, readOnly: [] })
    const read = names.filter(() => next() < 0.5)
    return space.coverOfModel({ scope: names.filter((n) => !read.includes(n)), readOnly: read })
  })
}

/** The baseline: the same oracle asked of every threat model, null where the space is too big to list. */
function everyThreatModel(space: SearchSpace, wins: (c: Cover) => boolean): number | null {
  if (space.total > SCAN_LIMIT) return null
  let n = 0
  for (const c of space.elements()) if (wins(c)) n++
  return n
}

async function synthetic(): Promise<void> {
  console.log(
    '\nSynthetic monotone oracles (mean over 5 seeds): evaluations against threat models, and the search against checking them all',
  )
  row('forest, space, generators', 'threat models', 'evaluated', 'eval/total', 'eval/bound', 'search ms', 'check-all ms', 'ratio')
  const forests: Array<[string, Forest]> = [
    ['chatbot', CHATBOT_FOREST],
    ['assistant', ASSISTANT_FOREST],
    ['AgentDojo', AGENTDOJO_FOREST],
  ]
  for (const [name, forest] of forests) {
    const base = new ThreatModelLattice(buildDomain(forest))
    for (const space of [base, new GrantLattice(base)] as SearchSpace[]) {
      for (const k of [1, 3, 8]) {
        let evaluated = 0
        let bound = 0
        let searchMs = 0
        let allMs: number | null = 0
        const seeds = [1, 2, 3, 4, 5]
        for (const s of seeds) {
          const g = generators(space, base, k, s * 7919 + k)
          const wins = (c: Cover) => g.some((x) => coverLeq(x, c))
          const answer = await time(() => searchFrontierSync(space, (c) => ({ runs: [[wins(c)]] }), { taskCount: 1 }))
          const all = await time(() => everyThreatModel(space, wins))
          evaluated += answer.value.evaluations.length
          bound += (answer.value.claim.minimalWins.length + answer.value.claim.maximalLosses.length) * (space.height + 1)
          searchMs += answer.ms
          allMs = all.value === null || allMs === null ? null : allMs + all.ms
        }
        const n = seeds.length
        const total = Number(space.total)
        row(
          `${name}, ${space.readOnly ? 'read-only' : 'scope only'}, ${k}`,
          total,
          evaluated / n,
          `${((100 * evaluated) / n / total).toPrecision(2)}%`,
          (evaluated / bound).toFixed(3),
          searchMs / n,
          allMs === null ? 'too many' : allMs / n,
          allMs === null ? '-' : `${(searchMs / allMs).toFixed(2)}x`,
        )
      }
    }
  }
  console.log(
    '(eval/bound: evaluations over (|minimal wins| + |maximal losses|) × (height + 1), height = tags, or 2 × tags with read-only grants; ' +
      'ratio: search time over the check of every threat model, no Controller either way)',
  )
}

async function live(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-frontier-bench-'))
  const procs = new CliProcesses()
  const quiet = { stdout: () => undefined, stderr: (s: string) => process.stderr.write(s) }
  try {
    const p = procs.start(['serve-target', 'assistant', '--port', '0', '--concurrency', '16'])
    const target = (await p.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
    const attacker = ['--target', target, '--claim', 'public/claims/assistant-exfiltration.json', '--template', 'naive', '--max-runs', '1']
    const sweep = await time(() => main(['sweep', ...attacker, '--all', '--parallel', '8', '--out', join(dir, 'sweep')], quiet))
    let printed = ''
    const frontier = await time(() =>
      main(['frontier', ...attacker, '--out', join(dir, 'frontier')], { ...quiet, stdout: (s) => (printed += s) }),
    )
    let printedPerTask = ''
    const perTask = await time(() =>
      main(['frontier', ...attacker, '--per-task', '--out', join(dir, 'per-task')], { ...quiet, stdout: (s) => (printedPerTask += s) }),
    )
    let printedReadOnly = ''
    const readOnly = await time(() =>
      main(['frontier', ...attacker, '--read-only', '--out', join(dir, 'read-only')], { ...quiet, stdout: (s) => (printedReadOnly += s) }),
    )
    if (sweep.value !== 0 || frontier.value !== 0 || perTask.value !== 0 || readOnly.value !== 0) {
      throw new Error(
        `exit codes: sweep ${sweep.value}, frontier ${frontier.value}, per task ${perTask.value}, read-only ${readOnly.value}`,
      )
    }
    const evaluatedReadOnly = /^evaluated (\d+) of ([\d,]+)/m.exec(printedReadOnly)
    const evaluated = /^evaluated (\d+) of (\d+)/m.exec(printed)
    const evaluatedPerTask = /^evaluated (\d+) of (\d+)/m.exec(printedPerTask)
    console.log(
      '\nThe demo assistant, live (assistant-exfiltration, 4 tasks, template naive, 1 run per task; target: serve-target --concurrency 16)',
    )
    row('command', 'threat models run', 'ms', 'ratio to the sweep')
    row('redscope sweep --all --parallel 8 (baseline)', 305, sweep.ms, '1.00x')
    row('redscope frontier (claim)', Number(evaluated?.[1] ?? NaN), frontier.ms, `${(frontier.ms / sweep.ms).toFixed(3)}x`)
    row('redscope frontier --per-task', Number(evaluatedPerTask?.[1] ?? NaN), perTask.ms, `${(perTask.ms / sweep.ms).toFixed(3)}x`)
    row(
      `redscope frontier --read-only (of ${evaluatedReadOnly?.[2] ?? '?'})`,
      Number(evaluatedReadOnly?.[1] ?? NaN),
      readOnly.ms,
      `${(readOnly.ms / sweep.ms).toFixed(3)}x`,
    )
    console.log('(the frontier runs one threat model at a time; the sweep runs 8 at once)')
  } finally {
    await procs.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A noisy search with the oracle drawing each run from its known rate; runs spent, evaluated, undecided, wrong decisions. */
function noisySearch(space: SearchSpace, rate: (c: Cover) => number, test: SequentialTest, seed: number) {
  const next = rng(seed)
  const answer = searchFrontierSync(space, (c, k) => ({ runs: Array.from({ length: k }, () => [next() < rate(c)]) }), {
    taskCount: 1,
    test,
  })
  let wrong = 0
  let decided = 0
  for (const e of answer.evaluations) {
    const d = decide(
      e.observation.runs.map((r) => r[0]),
      test,
    )
    if (d === 'undecided') continue
    decided++
    if (d === 'win' ? rate(e.cover) <= test.threshold : rate(e.cover) >= test.threshold) wrong++
  }
  return {
    runs: answer.evaluations.reduce((n, e) => n + e.observation.runs.length, 0),
    evaluated: answer.evaluations.length,
    undecided: answer.claim.undecided.length,
    decided,
    wrong,
  }
}

async function noisy(): Promise<void> {
  console.log(
    '\nNoisy targets (--confidence 0.95 --threshold 0.5, mean over 10 seeds): runs of the claim against a sweep of every threat model with the same repeats',
  )
  row('target, max repeats', 'threat models', 'evaluated', 'undecided', 'runs', 'sweep runs', 'share', 'wrong/decided', 'search ms')
  const stochastic = new ThreatModelLattice(buildDomain(STOCHASTIC_FOREST))
  const odds = (c: Cover) => refundChanceOfTags(stochastic.preorder.filter((_, i) => stochastic.has(c, i)).map((t) => t.name))
  // AgentDojo: four generators, two strong (0.95, 0.9), one near the threshold (0.55), one below it (0.3), combined as independent chances.
  const dojo = new ThreatModelLattice(buildDomain(AGENTDOJO_FOREST))
  const g = [
    [['workspace_inbox'], 0.95],
    [['user', 'system_prompt'], 0.9],
    [['banking_bank_account', 'slack_web'], 0.55],
    [['tool_catalogue_edit'], 0.3],
  ] as const
  const generatorsOf = g.map(([names, pull]) => ({ cover: dojo.coverOfNames(names), pull }))
  const dojoRate = (c: Cover) => 1 - generatorsOf.reduce((stays, x) => (coverLeq(x.cover, c) ? stays * (1 - x.pull) : stays), 1)
  for (const [name, space, rate] of [
    ['stochastic agent', stochastic, odds],
    ['AgentDojo, synthetic', dojo, dojoRate],
  ] as const) {
    for (const maxRepeats of [20, 50, 100]) {
      const test = { confidence: 0.95, threshold: 0.5, maxRepeats }
      const seeds = 10
      let runs = 0
      let evaluated = 0
      let undecided = 0
      let wrong = 0
      let decided = 0
      const t = await time(() => {
        for (let s = 1; s <= seeds; s++) {
          const r = noisySearch(space, rate, test, s * 7919 + maxRepeats)
          runs += r.runs
          evaluated += r.evaluated
          undecided += r.undecided
          wrong += r.wrong
          decided += r.decided
        }
      })
      const sweep = Number(space.total) * maxRepeats
      row(
        `${name}, ${maxRepeats}`,
        Number(space.total),
        evaluated / seeds,
        undecided / seeds,
        runs / seeds,
        sweep,
        `${((100 * runs) / seeds / sweep).toPrecision(2)}%`,
        `${wrong}/${decided}`,
        t.ms / seeds,
      )
    }
  }
  console.log('(a sweep with the same repeats runs every threat model max-repeats times; the test stops each as soon as it decides)')
}

/** Clopper-Pearson bounds at level a, by bisection on the binomial tail (bench only: the comparison the sequential test is chosen against). */
function clopperPearson(wins: number, runs: number, a: number): [number, number] {
  const logChoose = (n: number, k: number) => {
    let s = 0
    for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i)
    return s
  }
  const upperTail = (w: number, p: number) => {
    let t = 0
    for (let k = w; k <= runs; k++) t += Math.exp(logChoose(runs, k) + k * Math.log(p) + (runs - k) * Math.log1p(-p))
    return t
  }
  const bisect = (f: (p: number) => boolean) => {
    let lo = 0
    let hi = 1
    for (let i = 0; i < 50; i++) {
      const m = (lo + hi) / 2
      if (f(m)) hi = m
      else lo = m
    }
    return (lo + hi) / 2
  }
  return [
    wins === 0 ? 0 : bisect((p) => upperTail(wins, p) >= a / 2),
    wins === runs ? 1 : bisect((p) => 1 - upperTail(wins + 1, p) <= a / 2),
  ]
}

function boundsCompared(): void {
  console.log(
    '\nRuns to decide one threat model at 95% against 0.5 (mean of 300 seeded sequences; at most 100 runs): the confidence sequence (used) against Clopper-Pearson at α/100 per look (Bonferroni over 100 looks)',
  )
  row('true rate', 'confidence sequence', 'Clopper-Pearson + Bonferroni', 'ratio')
  const test = { confidence: 0.95, threshold: 0.5, maxRepeats: 100 }
  for (const p of [0.97, 0.9, 0.75, 0.25, 0.1, 0.03]) {
    let cs = 0
    let cp = 0
    for (let s = 0; s < 300; s++) {
      const next = rng(1000 + s)
      const runs = Array.from({ length: 100 }, () => next() < p)
      let n = 1
      while (n < 100 && decide(runs.slice(0, n), test) === 'undecided') n++
      cs += n
      let m = 1
      for (; m < 100; m++) {
        const w = runs.slice(0, m).filter(Boolean).length
        const [lo, hi] = clopperPearson(w, m, 0.05 / 100)
        if (lo > 0.5 || hi < 0.5) break
      }
      cp += m
    }
    row(String(p), cs / 300, cp / 300, `${(cs / cp).toFixed(2)}x`)
  }
}

async function liveNoisy(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-frontier-noisy-bench-'))
  const procs = new CliProcesses()
  const quiet = { stdout: () => undefined, stderr: () => undefined }
  try {
    const p = procs.start(['serve-target', 'stochastic', '--port', '0', '--concurrency', '8', '--seed', '1', '--think-ms', '0'])
    const target = (await p.waitFor(/serving stochastic at (http:\/\/127\.0\.0\.1:\d+)/))[1]
    const attacker = ['--target', target, '--claim', 'public/claims/stochastic-refund.json', '--template', 'naive', '--max-runs', '1']
    const sweep = await time(() => main(['sweep', ...attacker, '--all', '--parallel', '8', '--out', join(dir, 'sweep')], quiet))
    let printed = ''
    const frontier = await time(() =>
      main(['frontier', ...attacker, '--confidence', '0.95', '--max-repeats', '100', '--out', join(dir, 'frontier')], {
        ...quiet,
        stdout: (s) => (printed += s),
      }),
    )
    const runs = Number(/([\d,]+) run\(s\) of the claim/.exec(printed)?.[1].replace(/,/g, '') ?? NaN)
    const evaluated = Number(/^evaluated (\d+) of/m.exec(printed)?.[1] ?? NaN)
    console.log(
      `\nThe stochastic agent, live (stochastic-refund, template naive, 1 run a task; serve-target --concurrency 8, seed 1; exit codes sweep ${sweep.value}, frontier ${frontier.value})`,
    )
    row('command', 'threat models run', 'runs', 'ms', 'runs vs a 100-repeat sweep')
    row('redscope sweep --all --parallel 8 (1 run each)', 494, 494, sweep.ms, '-')
    row(
      'redscope frontier --confidence 0.95 --max-repeats 100',
      evaluated,
      runs,
      frontier.ms,
      `${((100 * runs) / (494 * 100)).toPrecision(2)}%`,
    )
    console.log(
      `(a sweep with 100 repeats would be 49,400 runs; at the 1-run sweep's pace about ${((sweep.ms * 100) / 1000).toFixed(0)} s against the frontier's ${(frontier.ms / 1000).toFixed(0)} s)`,
    )
  } finally {
    await procs.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

export default async function frontierBench(): Promise<void> {
  await synthetic()
  await noisy()
  boundsCompared()
  if (process.env.FRONTIER_BENCH_SKIP_LIVE !== '1') {
    await live()
    await liveNoisy()
  }
}
