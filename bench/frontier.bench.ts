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
 * Printed, never asserted: `npm run bench -- frontier`.
 * FRONTIER_BENCH_SKIP_LIVE=1 leaves out the live part (a minute of sweeping).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCAN_LIMIT, searchFrontierSync } from '../src/core/frontier'
import { coverLeq, GrantLattice, ThreatModelLattice, type Cover, type SearchSpace } from '../src/core/lattice'
import { AGENTDOJO_FOREST, buildDomain, CHATBOT_FOREST, type Forest } from '../src/core/tags'
import { ASSISTANT_FOREST } from '../src/reference-targets/assistant/forest'
import { CliProcesses } from '../src/testing/cliProcesses'
import { main } from '../src/cli/main'
import { seededRandom as rng } from '../src/testing/seededRandom'
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
  console.log('\nSynthetic monotone oracles (mean over 5 seeds): evaluations against threat models, and the search against checking them all')
  row('forest, space, generators', 'threat models', 'evaluated', 'eval/total', 'eval/bound', 'search ms', 'check-all ms', 'ratio')
  const forests: Array<[string, Forest]> = [['chatbot', CHATBOT_FOREST], ['assistant', ASSISTANT_FOREST], ['AgentDojo', AGENTDOJO_FOREST]]
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
        row(`${name}, ${space.readOnly ? 'read-only' : 'scope only'}, ${k}`, total, evaluated / n, `${((100 * evaluated) / n / total).toPrecision(2)}%`,
          (evaluated / bound).toFixed(3), searchMs / n, allMs === null ? 'too many' : allMs / n, allMs === null ? '-' : `${(searchMs / allMs).toFixed(2)}x`)
      }
    }
  }
  console.log('(eval/bound: evaluations over (|minimal wins| + |maximal losses|) × (height + 1), height = tags, or 2 × tags with read-only grants; ' +
    'ratio: search time over the check of every threat model, no Controller either way)')
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
    const frontier = await time(() => main(['frontier', ...attacker, '--out', join(dir, 'frontier')], { ...quiet, stdout: (s) => (printed += s) }))
    let printedPerTask = ''
    const perTask = await time(() => main(['frontier', ...attacker, '--per-task', '--out', join(dir, 'per-task')], { ...quiet, stdout: (s) => (printedPerTask += s) }))
    let printedReadOnly = ''
    const readOnly = await time(() => main(['frontier', ...attacker, '--read-only', '--out', join(dir, 'read-only')], { ...quiet, stdout: (s) => (printedReadOnly += s) }))
    if (sweep.value !== 0 || frontier.value !== 0 || perTask.value !== 0 || readOnly.value !== 0) {
      throw new Error(`exit codes: sweep ${sweep.value}, frontier ${frontier.value}, per task ${perTask.value}, read-only ${readOnly.value}`)
    }
    const evaluatedReadOnly = /^evaluated (\d+) of ([\d,]+)/m.exec(printedReadOnly)
    const evaluated = /^evaluated (\d+) of (\d+)/m.exec(printed)
    const evaluatedPerTask = /^evaluated (\d+) of (\d+)/m.exec(printedPerTask)
    console.log('\nThe demo assistant, live (assistant-exfiltration, 4 tasks, template naive, 1 run per task; target: serve-target --concurrency 16)')
    row('command', 'threat models run', 'ms', 'ratio to the sweep')
    row('redscope sweep --all --parallel 8 (baseline)', 305, sweep.ms, '1.00x')
    row('redscope frontier (claim)', Number(evaluated?.[1] ?? NaN), frontier.ms, `${(frontier.ms / sweep.ms).toFixed(3)}x`)
    row('redscope frontier --per-task', Number(evaluatedPerTask?.[1] ?? NaN), perTask.ms, `${(perTask.ms / sweep.ms).toFixed(3)}x`)
    row(`redscope frontier --read-only (of ${evaluatedReadOnly?.[2] ?? '?'})`, Number(evaluatedReadOnly?.[1] ?? NaN), readOnly.ms, `${(readOnly.ms / sweep.ms).toFixed(3)}x`)
    console.log('(the frontier runs one threat model at a time; the sweep runs 8 at once)')
  } finally {
    await procs.stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

export default async function frontierBench(): Promise<void> {
  await synthetic()
  if (process.env.FRONTIER_BENCH_SKIP_LIVE !== '1') await live()
}
