/**
 * Mounts the reference targets beside the app, in `vite` (dev) and in
 * `vite preview`, at `/targets/<name>/`: `npm start` then serves the app and
 * a demo target that needs no API key. Loaded by vite.config.ts, which Vite
 * bundles itself (so these relative TypeScript imports work there).
 */
import type { Plugin } from 'vite'
import { createTargetHandler, type TargetHandler } from '../server'
import { REFERENCE_TARGET_NAMES, referenceTargetOptions } from './catalog'

export const DEMO_TARGETS_PREFIX = '/targets'

interface Middlewares { use(path: string, handler: TargetHandler): unknown }
interface ServerLike { middlewares: Middlewares; httpServer: { once(event: 'close', listener: () => void): unknown } | null }

function mount(server: ServerLike): void {
  for (const name of REFERENCE_TARGET_NAMES) {
    const handler = createTargetHandler(referenceTargetOptions(name))
    server.middlewares.use(`${DEMO_TARGETS_PREFIX}/${name}`, handler)
    server.httpServer?.once('close', () => void handler.close())
  }
}

export function demoTargetsPlugin(): Plugin {
  return {
    name: 'redscope-demo-targets',
    configureServer(server) {
      mount(server)
    },
    configurePreviewServer(server) {
      mount(server)
    },
  }
}
