/**
 * The production build of the app that `view` serves: dist/ of the package,
 * rebuilt first when missing or older than its sources (scripts/buildApp.mjs,
 * in a child process so that Vite never loads into the server's process).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { buildProblem } from '../../scripts/buildStamp.mjs'
import type { CliIo } from './io'
import { UsageError } from './io'

export async function ensureAppBuilt(root: string, io: CliIo): Promise<string> {
  const dist = join(root, 'dist')
  const problem = await buildProblem(root, join(dist, 'build-inputs.json'))
  if (problem === null) return dist
  io.stderr(`redscope: building the app first (${problem}); this takes a few seconds once\n`)
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'buildApp.mjs'), '--force'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (r.status !== 0) {
    const why = (r.stderr ?? '').trim().split('\n').slice(-3).join(' / ')
    throw new UsageError(`the app could not be built (${why || `exit ${r.status}`}); run \`npm run build\` in the redscope checkout`)
  }
  return dist
}
