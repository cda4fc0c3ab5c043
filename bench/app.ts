/**
 * The production build of the app, served by Vite's preview server inside
 * this process: no child process to leave behind, and `close` stops it even
 * when a bench fails half way (callers use `withApp` or try/finally).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from '@playwright/test'
import { build, preview, type PreviewServer } from 'vite'
import { freePort } from './util'

export interface ServedApp {
  /** e.g. http://127.0.0.1:41234 */
  readonly base: string
  readonly browser: Browser
  /** The build served (with dist/'s layout: site-viewer/ included). */
  readonly outDir: string
}

/** Builds the app into a temp folder, serves it on a free loopback port, launches Chromium; always cleans up. */
export async function withApp<T>(fn: (app: ServedApp) => Promise<T>): Promise<T> {
  const outDir = mkdtempSync(join(tmpdir(), 'redscope-bench-app-'))
  let server: PreviewServer | null = null
  let browser: Browser | null = null
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } })
    const port = await freePort()
    server = await preview({ logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port, strictPort: true, open: false } })
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    })
    return await fn({ base: `http://127.0.0.1:${port}`, browser, outDir })
  } finally {
    await browser?.close().catch(() => undefined)
    await server?.close().catch(() => undefined)
    rmSync(outDir, { recursive: true, force: true })
  }
}
