#!/usr/bin/env node
// Runs every bench/*.bench.ts (or those whose names contain an argument) and
// prints their figures. Benchmarks print; they never assert timings.
import { register } from 'tsx/esm/api'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

register()
// Benchmarks measure redscope, not the demo targets' think time (src/reference-targets/thinkTime.ts): zero, for this process and its children.
process.env.REDSCOPE_THINK_MS = '0'
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench')
const filters = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
for (const file of files) {
  console.log(`\n## ${file.replace(/\.bench\.ts$/, '')}`)
  const mod = await import(pathToFileURL(join(dir, file)).href)
  await mod.default()
}
