import { defineConfig, devices } from '@playwright/test'

// Ports are configurable so that two checkouts can run e2e side by side.
const appPort = Number(process.env.E2E_APP_PORT ?? 4173)
const outDir = `node_modules/.cache/e2e-dist-${appPort}`
// Specs spawn `redscope serve-target`: the demo targets' think time (a pace for people watching) is zero in tests.
process.env.REDSCOPE_THINK_MS ??= '0'

export default defineConfig({
  testDir: './e2e',
  // Specs spawn bin/redscope.mjs: a stale CLI build is rebuilt first (the bin refuses to run one).
  globalSetup: './scripts/ensureCliBuilt.mjs',
  workers: 1,
  timeout: 30_000,
  forbidOnly: !!process.env.CI,
  // Two shared cores make animation and relayout timing vary; a test that passes only on its retry is
  // reported by name as flaky by scripts/test-all.sh, never silently.
  retries: process.env.CI ? 1 : 0,
  // JSON lands in reports/, which Playwright does not wipe (it clears test-results/ at start).
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The live view's pace for a demo run (src/features/run-console/runner/livePace.ts) is for people: none in tests.
    storageState: {
      cookies: [],
      origins: [{ origin: `http://127.0.0.1:${appPort}`, localStorage: [{ name: 'redscope.livePaceMs', value: '0' }] }],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          // Debian's chromium: Playwright must never download a browser of its own here.
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // A build directory per port: two checkouts (or engineers) running e2e at once never serve each other's half-written dist/.
      command: `npx vite build --outDir ${outDir} --emptyOutDir && npx vite preview --outDir ${outDir} --host 127.0.0.1 --port ${appPort} --strictPort`,
      url: `http://127.0.0.1:${appPort}`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      // The demo targets served beside the app answer at once in tests (their think time is for people watching).
      env: { REDSCOPE_THINK_MS: '0' },
    },
  ],
})
