#!/usr/bin/env node
// The CLI runs compiled: dist-cli/ is built by `npm ci` (the package's prepare
// script), `npm run build` and `npm run build:cli`. A build older than the
// sources it was made from is refused, never run: it would be old code.
import { fileURLToPath } from 'node:url'
import { buildProblem } from '../scripts/buildStamp.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const problem = await buildProblem(root, fileURLToPath(new URL('../dist-cli/build-inputs.json', import.meta.url)))
if (problem !== null) {
  process.stderr.write(`redscope: the compiled CLI is out of date: ${problem}. Run \`npm run build:cli\` (or \`npm run build\`) first.\n`)
  process.exit(2)
}
const { main } = await import('../dist-cli/main.js')
process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
})
