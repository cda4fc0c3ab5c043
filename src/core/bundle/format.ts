/**
 * A static bundle's data: a results tree cut into chunks, each a classic
 * script `data/N.js` that hands one JSON value to the viewer. Scripts, not
 * JSON files, because a page opened from file:// may not fetch (Chromium
 * refuses it) but may load a script from its own folder, which its CSP
 * (`script-src 'self'`) allows. The data is a JSON literal inside a fixed
 * call, so a payload in a result can only ever be a string value.
 *
 * Chunk 0 (`data/index.js`) is read when the page opens: the bundle's meta,
 * the tree's root files (experiments.json, sweep.json, frontier.json) and
 * every experiment's manifest.json (the sweep grid reads all of them at once),
 * and which chunk holds the rest of each folder (`mounts`). Every other chunk
 * is loaded when a view first asks for one of its files: an experiment's
 * files, or one task's trajectories. Chunk files are numbered, so no name
 * from the results (which may be hostile) becomes a file name of the bundle.
 */
import { z } from 'zod'

export const BUNDLE_DATA_DIR = 'data'
export const BUNDLE_INDEX_FILE = `${BUNDLE_DATA_DIR}/index.js`
/** The global each data script pushes its chunk onto (an array until the viewer takes it over). */
export const BUNDLE_GLOBAL = 'redscopeBundle'
/** The viewer's own files, built with the app into dist/site-viewer/, copied beside the data. */
export const SITE_VIEWER_FILES = ['index.html', 'viewer.js', 'viewer.css'] as const

export const chunkFileName = (chunk: number) => (chunk === 0 ? BUNDLE_INDEX_FILE : `${BUNDLE_DATA_DIR}/${chunk}.js`)

export const BundleMetaSchema = z.object({
  title: z.string(),
  createdAt: z.string(),
  /** What made it (`redscope bundle`, or the Results tab's "Download as a site"). */
  madeBy: z.string(),
  experiments: z.number().int().min(0),
  files: z.number().int().min(0),
  redaction: z.object({
    applied: z.boolean(),
    rules: z.array(z.object({ id: z.string(), label: z.string() })),
    /** Values masked, all files together. */
    masked: z.number().int().min(0),
  }),
})
export type BundleMeta = z.infer<typeof BundleMetaSchema>

/** Pairs rather than objects: a path such as `__proto__` stays a plain string key of a Map. */
export const BundleChunkSchema = z.object({
  v: z.literal(1),
  chunk: z.number().int().min(0),
  meta: BundleMetaSchema.optional(),
  files: z.array(z.tuple([z.string(), z.string()])),
  /** Folders whose files (those not listed here) are in another chunk. */
  mounts: z.array(z.tuple([z.string(), z.number().int().min(1)])),
})
export type BundleChunk = z.infer<typeof BundleChunkSchema>

const PREFIX = `(self.${BUNDLE_GLOBAL}=self.${BUNDLE_GLOBAL}||[]).push(`
const SUFFIX = ')\n'

/**
 * The script text of a chunk. JSON is a JavaScript expression; `<`, `>` and
 * the two line separators are escaped as well, so the text stays inert
 * even if someone pastes it inline into a page.
 */
export function dataScriptText(chunk: BundleChunk): string {
  const json = JSON.stringify(chunk).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return `${PREFIX}${json}${SUFFIX}`
}

export class BundleFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BundleFormatError'
  }
}

/** A chunk back from its script text, without running it (tests, and tools that read a bundle). */
export function parseDataScript(text: string, where = 'data script'): BundleChunk {
  if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) throw new BundleFormatError(`${where}: not a redscope bundle data script`)
  return parseChunk(JSON.parse(text.slice(PREFIX.length, -SUFFIX.length)), where)
}

export function parseChunk(value: unknown, where = 'data script'): BundleChunk {
  const parsed = BundleChunkSchema.safeParse(value)
  if (!parsed.success) throw new BundleFormatError(`${where}: ${parsed.error.issues[0]?.message ?? 'malformed'}`)
  return parsed.data
}
