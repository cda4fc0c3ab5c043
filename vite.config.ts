/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type PreviewServer, type ViteDevServer } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { buildStampPlugin, filesUnder } from './scripts/buildStamp.mjs'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONTENT_SECURITY_POLICY, SITE_CONTENT_SECURITY_POLICY } from './src/servers/app/contentSecurityPolicy.ts'

// The policy lives beside the app server, which also sends it as a header (src/servers/app).
export { CONTENT_SECURITY_POLICY }

/**
 * The policy as a <meta> in the built index.html, so that the build keeps it
 * on any static server. Build only: the dev server's hot-reload preamble is
 * an inline script.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'redscope-csp',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
    ],
  }
}

/**
 * The reference targets at /targets/<name>/ in dev and preview, so that
 * `npm run dev` serves a keyless demo target beside the app (the production
 * server of `npm start` mounts the same handlers itself). Loaded with tsx
 * when a server starts rather than imported: Vite bundles a config's static
 * imports and would print, at every start, a warning for each extensionless
 * import down through the engine.
 */
function demoTargets(): Plugin {
  type Mountable = ViteDevServer | PreviewServer
  type Hosts = readonly string[] | true
  const mount = async (server: Mountable, hosts: Hosts | undefined) => {
    if (process.env.VITEST) return
    const { tsImport } = await import('tsx/esm/api')
    const mod = (await tsImport('./src/reference-targets/vitePlugin.ts', import.meta.url)) as {
      mountDemoTargets(s: Mountable, h: Hosts): void
    }
    mod.mountDemoTargets(server, hosts ?? [])
  }
  return {
    name: 'redscope-demo-targets',
    configureServer: (server) => mount(server, server.config.server.allowedHosts),
    configurePreviewServer: (server) => mount(server, server.config.preview.allowedHosts),
  }
}

const root = fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]$/, '')

/** Where the static bundle's viewer lands inside the app's build; `redscope bundle` and the Results tab copy it from there. */
export const SITE_VIEWER_DIR = 'site-viewer'

/**
 * The static bundle's viewer (src/app/site), built with the app into
 * `<outDir>/site-viewer/`: one classic script and one stylesheet, because a
 * page opened from file:// may not load module scripts (Chromium refuses
 * them across its opaque origin), and an index.html under the site's policy.
 */
function siteViewer(react: () => Plugin[]): Plugin {
  let outDir = ''
  return {
    name: 'redscope-site-viewer',
    apply: (_config, env) => env.command === 'build' && !process.env.REDSCOPE_SITE_VIEWER_BUILD,
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      const { build } = await import('vite')
      const out = join(outDir.startsWith('/') ? outDir : join(root, outDir), SITE_VIEWER_DIR)
      process.env.REDSCOPE_SITE_VIEWER_BUILD = '1'
      try {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          build: {
            outDir: out,
            emptyOutDir: true,
            copyPublicDir: false,
            target: 'es2022',
            lib: {
              entry: join(root, 'src/app/site/main.tsx'),
              formats: ['iife'],
              name: 'redscopeSiteViewer',
              fileName: () => 'viewer.js',
              cssFileName: 'viewer',
            },
          },
        })
      } finally {
        delete process.env.REDSCOPE_SITE_VIEWER_BUILD
      }
      mkdirSync(out, { recursive: true })
      writeFileSync(join(out, 'index.html'), siteIndexHtml())
    },
  }
}

/** The bundle's page: the data's index first (a classic script sets a global), then the viewer. */
function siteIndexHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${SITE_CONTENT_SECURITY_POLICY.replaceAll('"', '&quot;')}" />
    <meta name="referrer" content="no-referrer" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>redscope results</title>
    <link rel="stylesheet" href="viewer.css" />
  </head>
  <body>
    <div id="root"></div>
    <script src="data/index.js"></script>
    <script src="viewer.js"></script>
  </body>
</html>
`
}

/**
 * The app build remembers its inputs (dist/build-inputs.json), so that
 * `redscope view` and `npm start` rebuild a dist/ older than its sources
 * instead of serving old code (see scripts/buildApp.mjs).
 */
const appBuildStamp = () =>
  buildStampPlugin({
    root,
    stampFile: 'build-inputs.json',
    extraInputs: () => [
      'index.html',
      'vite.config.ts',
      'package-lock.json',
      'src/servers/app/contentSecurityPolicy.ts',
      ...filesUnder(root, 'public'),
      // The site viewer is a second build (siteViewer): its own modules are not among the app's.
      ...filesUnder(root, 'src/app/site'),
      'src/adapters/storage/bundleStorage.ts',
      'src/core/bundle/format.ts',
      // Stylesheets are not chunk modules: listed here so that a change of one also rebuilds.
      ...filesUnder(root, 'src').filter((f) => f.endsWith('.css')),
    ],
  })

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), demoTargets(), appBuildStamp(), siteViewer(react)],
  server: { host: '127.0.0.1' },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/setupTests.ts'],
    // Some tests spawn bin/redscope.mjs: it must run this checkout's code.
    globalSetup: ['./scripts/ensureCliBuilt.mjs'],
    include: ['src/**/*.test.{ts,tsx}'],
    // The demo targets' think time is a pace for people: tests (and the CLIs they spawn) run at full speed.
    env: { REDSCOPE_THINK_MS: '0' },
  },
})
