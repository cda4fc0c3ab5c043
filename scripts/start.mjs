#!/usr/bin/env node
/**
 * `npm start`: the production app with the demo targets, served by the same
 * code as `redscope view` (src/servers/app), at http://127.0.0.1:5173/ unless
 * --port says otherwise. A fresh checkout needs nothing but `npm ci`: the CLI
 * is rebuilt here when stale (`npm ci` built it already), and `view` builds
 * the app (dist/) when it is missing or older than its sources.
 *   npm start                          the app and the demo targets
 *   npm start -- --port 0              any free port
 *   npm start -- path/to/results       also a results folder, read-only
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildProblem } from './buildStamp.mjs'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const problem = await buildProblem(root, join(root, 'dist-cli', 'build-inputs.json'))
if (problem !== null) {
  console.error(`building the CLI first (${problem})`)
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'buildCli.mjs')], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const args = process.argv.slice(2)
const TAKES_VALUE = new Set(['--port', '--host', '--token', '--allow-host'])
const positional = args.some((a, i) => !a.startsWith('-') && !TAKES_VALUE.has(args[i - 1] ?? ''))
const given = (name) => args.some((a) => a === name || a.startsWith(`${name}=`))
const view = ['view', '--no-open', ...(positional ? [] : ['--no-results']), ...(given('--port') ? [] : ['--port', '5173']), ...args]

const { main } = await import('../dist-cli/main.js')
process.exitCode = await main(view, {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
})
