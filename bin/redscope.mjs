#!/usr/bin/env node
// The CLI is TypeScript run from source through tsx, so that it shares the
// engine with the app without a separate build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
})
