/**
 * Mounts the reference targets beside the app, in `vite` (dev) and in
 * `vite preview`, at `/targets/<name>/` (the app server of `npm start` and
 * `redscope view` mounts the same handlers): the app then has a demo target
 * that needs no API key. vite.config.ts loads this file through
 * tsx when a server starts (see the note there).
 */
import { createTargetHandler, type HostPolicy, type TargetHandler } from '../servers/target'
import { referenceTargetOptions } from './catalog'
import { DEMO_TARGET_NAMES } from './names'
import { thinkMsFromEnv } from './thinkTime'

export const DEMO_TARGETS_PREFIX = '/targets'

/** The part of Vite's dev and preview servers this needs (connect strips the mount path from `req.url`). */
export interface MountableServer {
  readonly middlewares: { use(path: string, handler: TargetHandler): unknown }
  readonly httpServer: { once(event: 'close', listener: () => void): unknown } | null
}

/**
 * `allowedHosts` is Vite's own setting for that server: in dev, plugin
 * middlewares run before Vite's host check, so the targets apply it themselves.
 */
export function mountDemoTargets(server: MountableServer, allowedHosts: HostPolicy = [], thinkMs = thinkMsFromEnv()): void {
  for (const [name, handler] of demoTargetHandlers(allowedHosts, thinkMs)) {
    server.middlewares.use(`${DEMO_TARGETS_PREFIX}/${name}`, handler)
    server.httpServer?.once('close', () => void handler.close())
  }
}

/** One protocol handler per demo target (names.ts), by name: Vite mounts them here, the app server (src/servers/app) by itself. */
export function demoTargetHandlers(allowedHosts: HostPolicy = [], thinkMs = thinkMsFromEnv()): Map<string, TargetHandler> {
  // A demo pace by default (REDSCOPE_THINK_MS, 0 in tests), so that the run console's live view can be watched.
  return new Map(DEMO_TARGET_NAMES.map((name) => [name, createTargetHandler(referenceTargetOptions(name, { allowedHosts }, thinkMs))]))
}
