/**
 * Global setup of vitest and Playwright: tests that spawn bin/redscope.mjs
 * must run the code under test, so a missing or stale CLI build is rebuilt
 * first (the bin itself refuses to run one; see bin/redscope.mjs).
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildProblem } from './buildStamp.mjs'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

export default async function ensureCliBuilt() {
  const problem = await buildProblem(root, join(root, 'dist-cli', 'build-inputs.json'))
  if (problem === null) return
  console.log(`building the CLI for the tests: ${problem}`)
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'buildCli.mjs')], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`the CLI build failed (exit ${r.status})`)
}
