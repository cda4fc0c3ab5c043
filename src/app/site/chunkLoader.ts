/**
 * Loads a bundle's data chunk the only way a page opened from file:// can: a
 * <script> from its own data/ folder (allowed by `script-src 'self'`), which
 * pushes its JSON onto `self.redscopeBundle`. The viewer takes that array
 * over: every chunk pushed (the index before the viewer ran, the others on
 * demand) lands in `received`, and a load waits for its number.
 */
import { BUNDLE_GLOBAL, chunkFileName } from '../../core/bundle'

type Received = { readonly chunk?: unknown }
const received = new Map<number, unknown>()
const waiting = new Map<number, (value: unknown) => void>()

function accept(value: unknown) {
  const n = (value as Received | null)?.chunk
  if (typeof n !== 'number') return
  received.set(n, value)
  waiting.get(n)?.(value)
  waiting.delete(n)
}

/** Takes over the global the data scripts push onto; returns the index chunk if data/index.js ran. */
export function takeOverDataGlobal(): unknown {
  const g = globalThis as unknown as Record<string, unknown>
  const early = Array.isArray(g[BUNDLE_GLOBAL]) ? (g[BUNDLE_GLOBAL] as unknown[]) : []
  early.forEach(accept)
  g[BUNDLE_GLOBAL] = { push: (value: unknown) => accept(value) }
  return received.get(0) ?? null
}

export function loadChunk(n: number): Promise<unknown> {
  const have = received.get(n)
  if (have !== undefined) return Promise.resolve(have)
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = chunkFileName(n)
    waiting.set(n, resolve)
    script.onload = () => {
      script.remove()
      // Loaded but pushed nothing under its number: not this bundle's file.
      if (!received.has(n)) {
        waiting.delete(n)
        reject(new Error(`${chunkFileName(n)} holds no data of this bundle`))
      }
    }
    script.onerror = () => {
      script.remove()
      waiting.delete(n)
      reject(new Error(`${chunkFileName(n)} could not be loaded: the bundle is incomplete (copy its whole folder)`))
    }
    document.head.append(script)
  })
}
