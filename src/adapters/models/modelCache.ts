/**
 * The folder pulled models live in, and what it holds. `$REDSCOPE_MODELS`
 * when set, else the user's cache (`$XDG_CACHE_HOME/redscope/models`,
 * `~/.cache/redscope/models`; `%LOCALAPPDATA%\redscope\models` on Windows):
 * shared by every checkout of redscope on the machine, so a model is
 * downloaded once.
 */
import { open, readdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { PINNED_MODELS, pinnedModel, type PinnedModel } from './catalog'

export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env, home = homedir(), platform = process.platform): string {
  if (env.REDSCOPE_MODELS) return resolve(env.REDSCOPE_MODELS)
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'redscope', 'models')
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(home, '.cache')
  return join(cache, 'redscope', 'models')
}

export function cachedModelPath(dir: string, model: PinnedModel): string {
  return join(dir, model.file)
}

export interface CachedModel {
  /** The pinned name, or null for any other GGUF found in the folder. */
  readonly name: string | null
  readonly file: string
  readonly path: string
  /** null when absent. */
  readonly bytes: number | null
  /**
   * `pulled` (present, the pinned size; its hash was checked when pulled), `absent`, `damaged` (the
   * wrong size: pull it again) or `other` (a GGUF redscope did not pull, served by path).
   */
  readonly state: 'pulled' | 'absent' | 'damaged' | 'other'
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    const s = await stat(path)
    return s.isFile() ? s.size : null
  } catch {
    return null
  }
}

/** Every pinned model (pulled or not), then any other GGUF in the folder. A missing folder is an empty cache. */
export async function listCache(dir: string): Promise<CachedModel[]> {
  const rows: CachedModel[] = []
  for (const m of PINNED_MODELS) {
    const path = cachedModelPath(dir, m)
    const bytes = await sizeOf(path)
    rows.push({ name: m.name, file: m.file, path, bytes, state: bytes === null ? 'absent' : bytes === m.bytes ? 'pulled' : 'damaged' })
  }
  let names: string[] = []
  try {
    names = await readdir(dir)
  } catch {
    // No folder yet: nothing pulled.
  }
  const pinnedFiles = new Set(PINNED_MODELS.map((m) => m.file))
  for (const file of names.sort()) {
    if (!file.endsWith('.gguf') || pinnedFiles.has(file)) continue
    const path = join(dir, file)
    const bytes = await sizeOf(path)
    if (bytes !== null) rows.push({ name: null, file, path, bytes, state: 'other' })
  }
  return rows
}

/** A model that cannot be served as asked: the message names what and where, and what to do. */
export class ModelNotFoundError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelNotFoundError'
  }
}

const GGUF_MAGIC = 'GGUF'

/**
 * `--model NAME|PATH`: a pinned name is its file in the cache, which must have been pulled; anything else
 * is a path to a GGUF file, checked for GGUF's magic bytes so that a wrong file is named here rather than
 * by llama.cpp's own error.
 */
export async function resolveModelArg(arg: string, dir: string): Promise<{ path: string; pinned: PinnedModel | null }> {
  const pinned = pinnedModel(arg)
  if (pinned) {
    const path = cachedModelPath(dir, pinned)
    const bytes = await sizeOf(path)
    if (bytes === null) {
      throw new ModelNotFoundError(`${pinned.name} is not in the model cache (${dir}): run \`redscope models pull ${pinned.name}\` first`)
    }
    if (bytes !== pinned.bytes) {
      throw new ModelNotFoundError(
        `${path} has ${bytes} bytes, not the ${pinned.bytes} of ${pinned.name}: run \`redscope models pull ${pinned.name}\` to fetch it again`,
      )
    }
    return { path, pinned }
  }
  const path = resolve(arg)
  let head: Buffer
  try {
    const file = await open(path, 'r')
    try {
      if (!(await file.stat()).isFile()) throw new ModelNotFoundError(`--model ${arg}: ${path} is not a file`)
      head = Buffer.alloc(4)
      await file.read(head, 0, 4, 0)
    } finally {
      await file.close()
    }
  } catch (e) {
    if (e instanceof ModelNotFoundError) throw e
    const code = (e as NodeJS.ErrnoException).code
    const known = PINNED_MODELS.map((m) => m.name).join(', ')
    throw new ModelNotFoundError(
      `--model ${arg}: ${code === 'ENOENT' ? 'no such file' : `cannot read ${path} (${code ?? (e as Error).message})`}; give a GGUF file or a pinned model name (${known})`,
    )
  }
  if (head.toString('latin1') !== GGUF_MAGIC) {
    throw new ModelNotFoundError(`--model ${arg}: ${path} is not a GGUF file (it does not start with "GGUF")`)
  }
  return { path, pinned: null }
}
