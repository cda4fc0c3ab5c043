/**
 * Experiments (one, or a sweep's) as a zip of a superred results tree:
 * `{top}/experiments.json` with their rows only, `{top}/{experiment}/...`
 * copied file by file from the Storage, plus optional extra files at the
 * root (a sweep's record). Compressed off the main thread by fflate's async
 * zip. A results tree holds no secrets (superred persists `{model}` only).
 */
import { zip, type Zippable } from 'fflate'
import { dumpFile, joinPath, type Storage } from '../core/results'

async function collect(storage: Storage, dir: string, out: Map<string, string>): Promise<void> {
  for (const entry of await storage.list(dir)) {
    const path = joinPath(dir, entry.name)
    if (entry.kind === 'dir') await collect(storage, path, out)
    else out.set(path, await storage.readText(path))
  }
}

/** The files of the experiments, keyed by their path in the tree (experiments.json filtered to them). */
export async function treeFiles(storage: Storage, dirs: readonly string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const wanted = new Set(dirs)
  try {
    const index = JSON.parse(await storage.readText('experiments.json')) as { schema_version: unknown; experiments: Array<{ dir: string }> }
    const rows = index.experiments.filter((r) => wanted.has(r.dir))
    if (rows.length > 0) files.set('experiments.json', dumpFile({ schema_version: index.schema_version, experiments: rows }))
  } catch {
    // No index yet (nothing completed): readers fall back to each folder's manifest.json.
  }
  for (const dir of dirs) await collect(storage, dir, files)
  return files
}

export async function zipTree(
  storage: Storage,
  dirs: readonly string[],
  top: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<Uint8Array> {
  const files = await treeFiles(storage, dirs)
  for (const [name, text] of Object.entries(extra)) files.set(name, text)
  const encoder = new TextEncoder()
  const entries: Zippable = {}
  for (const [path, text] of files) entries[`${top}/${path}`] = encoder.encode(text)
  return new Promise((resolve, reject) => zip(entries, { level: 6 }, (error, data) => (error ? reject(error) : resolve(data))))
}
