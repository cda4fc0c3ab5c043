/**
 * The CLI's start-up: `node bin/redscope.mjs --help` (compiled, lazy
 * commands) beside the same entry run from TypeScript source through tsx (how
 * the CLI started before it was compiled) and beside bare `node -e 0` (the
 * floor no CLI goes under). Each is a fresh process, started in turn (A B C A
 * B C ...) so that a machine whose speed drifts moves all three alike; the
 * ratios are taken pair by pair and their medians printed.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHATBOT_FOREST } from '../src/core/tags'
import { med, row } from './util'

const ROUNDS = 15

const fromSource = (args: string[]) => [
  '--input-type=module',
  '-e',
  "import { register } from 'tsx/esm/api'; register(); const { main } = await import('./src/cli/main.ts'); " +
    `process.exitCode = await main(${JSON.stringify(args)}, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) })`,
]

function wallMs(args: string[]): number {
  const start = performance.now()
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' })
  const ms = performance.now() - start
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
}

function compare(label: string, args: string[]) {
  const commands = { compiled: ['bin/redscope.mjs', ...args], tsx: fromSource(args), bare: ['-e', '0'] }
  for (const c of Object.values(commands)) wallMs(c) // warm the disk cache
  const samples = { compiled: [] as number[], tsx: [] as number[], bare: [] as number[] }
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, c] of Object.entries(commands)) samples[name as keyof typeof samples].push(wallMs(c))
  }
  const ratio = (a: number[], b: number[]) => med(a.map((x, i) => x / b[i]))
  row(`${label}: compiled, median ms`, med(samples.compiled))
  row(`${label}: from source via tsx, median ms`, med(samples.tsx))
  row(`${label}: bare node -e 0, median ms`, med(samples.bare))
  row(`${label}: compiled / tsx (pairwise median)`, ratio(samples.compiled, samples.tsx))
  row(`${label}: compiled / bare node (pairwise median)`, ratio(samples.compiled, samples.bare))
}

export default async function cliBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'redscope-cli-bench-'))
  const forest = join(dir, 'chatbot.json')
  try {
    writeFileSync(forest, JSON.stringify(CHATBOT_FOREST))
    console.log(`whole-process wall time, ${ROUNDS} rounds of each`)
    compare('--help', ['--help'])
    compare('combinations --count', ['combinations', forest, '--count'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
