#!/usr/bin/env node
/**
 * Builds the app (vite build) into dist/ when it is missing or older than its
 * sources (dist/build-inputs.json, see buildStamp.mjs), for `redscope view`
 * and `npm start`: a fresh checkout needs nothing but `npm ci`. Built beside
 * the old build and swapped in, so a server starting meanwhile (or a second
 * `view` building at the same time) never serves half a build.
 *   node scripts/buildApp.mjs           build if stale
 *   node scripts/buildApp.mjs --force   build anyway
 */
import { existsSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildProblem } from './buildStamp.mjs'

export const APP_DIR = 'dist'
export const APP_STAMP = 'build-inputs.json'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

/** Why dist/ must be (re)built, or null when it matches its sources. */
export function appBuildProblem() {
  return buildProblem(root, join(root, APP_DIR, APP_STAMP))
}

export async function buildApp({ reason } = {}) {
  const { build } = await import('vite')
  const out = join(root, APP_DIR)
  const tmp = `${out}.tmp-${process.pid}`
  const old = `${out}.old-${process.pid}`
  const started = performance.now()
  // Vite keeps an inherited NODE_ENV: a build spawned under a test runner (NODE_ENV=test) compiled JSX for React's
  // development runtime, and the site viewer, whose React is forced to production, died on a missing jsxDEV.
  process.env.NODE_ENV = 'production'
  if (reason) console.error(`building the app (${reason})…`)
  try {
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: tmp, emptyOutDir: true } })
    if (existsSync(out)) renameSync(out, old)
    renameSync(tmp, out)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
    rmSync(old, { recursive: true, force: true })
  }
  console.error(`app built in ${APP_DIR}/ (${Math.round(performance.now() - started)} ms)`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problem = process.argv.includes('--force') ? 'forced' : await appBuildProblem()
  if (problem !== null) await buildApp({ reason: problem })
}
