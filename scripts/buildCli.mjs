#!/usr/bin/env node
/**
 * Compiles the CLI (src/cli/main.ts and everything it imports) to plain
 * JavaScript in dist-cli/, for Node 20: Vite's own bundler (rolldown) in SSR
 * mode, so node_modules stay external and each command's code is its own chunk
 * that loads only when that command runs. Built beside the old build and
 * swapped in, so that a CLI starting meanwhile never sees half a build.
 * Run by `npm ci` (prepare), `npm run build` and `npm run build:cli`.
 */
import { existsSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { buildStampPlugin } from './buildStamp.mjs'

export const CLI_DIR = 'dist-cli'
export const CLI_STAMP = 'build-inputs.json'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const out = join(root, CLI_DIR)
const tmp = `${out}.tmp-${process.pid}`
const old = `${out}.old-${process.pid}`

const started = performance.now()
try {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      buildStampPlugin({
        root,
        stampFile: CLI_STAMP,
        extraInputs: () => ['scripts/buildCli.mjs', 'scripts/buildStamp.mjs'],
      }),
    ],
    build: {
      ssr: true,
      outDir: tmp,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      reportCompressedSize: false,
      rolldownOptions: {
        // The results writer thread's module, which fsWriteThread starts from beside main.js.
        input: { main: 'src/cli/main.ts', writerThread: 'src/adapters/storage/writerThread.ts' },
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  })
  if (existsSync(out)) renameSync(out, old)
  renameSync(tmp, out)
} finally {
  rmSync(tmp, { recursive: true, force: true })
  rmSync(old, { recursive: true, force: true })
}
console.log(`redscope CLI built in ${CLI_DIR}/ (${Math.round(performance.now() - started)} ms)`)
