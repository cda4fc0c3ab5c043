/**
 * `redscope bundle DIR --out OUT`: a results folder as a static site, the
 * site viewer (built with the app into dist/site-viewer/) beside the data
 * (src/core/bundle). Written into a sibling folder and renamed into place, so
 * OUT is never half a bundle; an earlier bundle in OUT is replaced, any other
 * non-empty OUT is refused.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { buildBundle, BUNDLE_INDEX_FILE, SITE_VIEWER_FILES } from '../../core/bundle'
import { listExperiments } from '../../core/results'
import { ensureAppBuilt } from '../appBuild'
import type { CommandArgs } from '../command'
import type { bundleOptions } from '../definitions/bundle'
import { EXIT_OK, UsageError, type CliIo } from '../io'
import { packageRoot } from '../packageRoot'

const fmt = (n: number) => n.toLocaleString('en-US')
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`

const isInside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/** Is OUT free to write: absent, empty, or an earlier bundle (which is replaced)? */
async function outState(out: string): Promise<'absent' | 'empty' | 'bundle'> {
  if (!existsSync(out)) return 'absent'
  if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out}: not a folder`)
  const entries = await readdir(out)
  if (entries.length === 0) return 'empty'
  if (existsSync(join(out, 'index.html')) && existsSync(join(out, BUNDLE_INDEX_FILE))) return 'bundle'
  throw new UsageError(`--out ${out}: the folder holds other files; give a new or empty folder (or an earlier bundle, which is replaced)`)
}

function version(root: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? ''
  } catch {
    return ''
  }
}

export async function bundleCommand({ positionals, options }: CommandArgs<typeof bundleOptions>, io: CliIo): Promise<number> {
  const dir = resolve(positionals[0])
  const out = resolve(options.out!)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${positionals[0]}: no such folder`)
  if (isInside(dir, out)) throw new UsageError(`--out ${options.out} is inside ${positionals[0]}: write the bundle elsewhere`)
  if (isInside(out, dir)) throw new UsageError(`${positionals[0]} is inside --out ${options.out}: write the bundle elsewhere`)
  const state = await outState(out)
  const storage = new NodeFsStorage(dir)
  if ((await listExperiments(storage)).length === 0) {
    throw new UsageError(`${positionals[0]}: no results tree here (no experiments.json, no folder with a manifest.json)`)
  }
  const root = packageRoot()
  const viewerDir = join(await ensureAppBuilt(root, io), 'site-viewer')
  for (const f of SITE_VIEWER_FILES) {
    if (!existsSync(join(viewerDir, f)))
      throw new UsageError(`the site viewer is missing from the app's build (${f}); run \`npm run build\` in the redscope checkout`)
  }

  const partial = join(dirname(out), `.${basename(out)}.partial-${process.pid}`)
  await rm(partial, { recursive: true, force: true })
  try {
    await mkdir(join(partial, 'data'), { recursive: true })
    let viewerBytes = 0
    for (const f of SITE_VIEWER_FILES) {
      await copyFile(join(viewerDir, f), join(partial, f))
      viewerBytes += statSync(join(partial, f)).size
    }
    const stats = await buildBundle(
      storage,
      {
        title: options.title ?? basename(dir),
        createdAt: new Date(),
        madeBy: `${['redscope', version(root)].filter(Boolean).join(' ')} (redscope bundle)`,
        redact: !options['no-redact'],
      },
      (path, text) => writeFile(join(partial, path), text),
    )
    if (state === 'bundle') await rm(out, { recursive: true, force: true })
    else if (state === 'empty') await rm(out, { recursive: true, force: true })
    await mkdir(dirname(out), { recursive: true })
    await rename(partial, out)
    const rel = relative(process.cwd(), out)
    const shown = rel === '' ? '.' : rel.startsWith('..') ? out : rel
    io.stdout(
      `wrote ${join(shown, 'index.html')}: ${fmt(stats.experiments)} experiment${stats.experiments === 1 ? '' : 's'}, ${fmt(stats.files)} results files, ` +
        `${size(viewerBytes + stats.dataBytes)} (viewer ${size(viewerBytes)}, data ${size(stats.dataBytes)} in ${fmt(stats.chunks)} scripts)\n`,
    )
    if (options['no-redact']) io.stdout('not redacted (--no-redact): the results are copied as they were written\n')
    else {
      const byRule = [...stats.maskedByRule].map(([id, n]) => `${id} ${fmt(n)}`).join(', ')
      io.stdout(
        `secrets masked by the built-in rules: ${fmt(stats.masked)}${byRule ? ` (${byRule})` : ''}; patterns never catch every disguise, read what you share\n`,
      )
    }
    io.stdout(`open ${join(shown, 'index.html')} in a browser, or put the folder on any static host\n`)
    return EXIT_OK
  } finally {
    await rm(partial, { recursive: true, force: true })
  }
}
