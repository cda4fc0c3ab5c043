/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type PreviewServer, type ViteDevServer } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * The built app runs no inline script at all: whatever a payload, a model or
 * an imported file smuggles into the DOM cannot execute. Targets and LLM
 * endpoints live at addresses the user types in, so connect-src stays open.
 * Build only: the dev server's hot-reload preamble is an inline script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // React Flow and the viewer position elements with style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  'connect-src * data: blob:',
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

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
 * `npm start` serves a keyless demo target beside the app. Loaded with tsx
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
    const mod = (await tsImport('./src/targets/vitePlugin.ts', import.meta.url)) as { mountDemoTargets(s: Mountable, h: Hosts): void }
    mod.mountDemoTargets(server, hosts ?? [])
  }
  return {
    name: 'redscope-demo-targets',
    configureServer: (server) => mount(server, server.config.server.allowedHosts),
    configurePreviewServer: (server) => mount(server, server.config.preview.allowedHosts),
  }
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), demoTargets()],
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
