/**
 * A build remembers what it was built from, so that nothing runs a build older
 * than its sources: the list of input files (relative to the package root)
 * with their size, modification time and SHA-256. Checking stats each input
 * and hashes only those whose time changed (a checkout touches files without
 * changing them). Plain JavaScript: bin/redscope.mjs runs this check before
 * the compiled CLI, with no TypeScript toolchain at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'

const VERSION = 1

// node:crypto loads only when a file must be hashed: the CLI's start-up usually needs stats alone.
const sha256 = async (path) => (await import('node:crypto')).createHash('sha256').update(readFileSync(path)).digest('hex')

async function inputOf(root, rel) {
  const full = join(root, rel)
  const s = statSync(full)
  return [rel.split(sep).join('/'), s.size, s.mtimeMs, await sha256(full)]
}

/** Every file under a folder, relative to root (for inputs that are copied, not bundled: public/). */
export function filesUnder(root, dir) {
  const full = join(root, dir)
  if (!existsSync(full)) return []
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
}

export async function writeStamp(root, stampPath, inputs) {
  const unique = [...new Set(inputs.map((p) => (isAbsolute(p) ? relative(root, p) : p)))].sort()
  const stamp = { version: VERSION, built_at: new Date().toISOString(), inputs: await Promise.all(unique.map((rel) => inputOf(root, rel))) }
  writeFileSync(stampPath, `${JSON.stringify(stamp)}\n`)
}

/**
 * A Vite (rolldown) plugin that writes the stamp beside the build: every
 * bundled module under root (node_modules aside: package-lock.json stands for
 * them where they are bundled) plus the extra inputs given.
 */
export function buildStampPlugin({ root, stampFile, extraInputs = () => [] }) {
  let outDir = ''
  const modules = new Set()
  return {
    name: 'redscope-build-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (const id of Object.keys(chunk.modules)) {
          const path = id.split('?')[0]
          if (path.startsWith(root + sep) && !path.includes(`${sep}node_modules${sep}`) && existsSync(path)) modules.add(path)
        }
      }
    },
    async writeBundle() {
      await writeStamp(root, join(isAbsolute(outDir) ? outDir : join(root, outDir), stampFile), [...modules, ...extraInputs()])
    },
  }
}

/**
 * Why the build in `stampPath` cannot be trusted, or null when it matches its
 * sources. Sources absent altogether (an installed package without src/) are
 * not a reason: there is nothing newer to run.
 */
export async function buildProblem(root, stampPath) {
  let stamp
  try {
    stamp = JSON.parse(readFileSync(stampPath, 'utf8'))
  } catch {
    return `it is not built (${relative(root, stampPath)} is missing)`
  }
  if (stamp?.version !== VERSION || !Array.isArray(stamp.inputs)) return `${relative(root, stampPath)} is from another version of redscope`
  let missing = null
  let present = 0
  for (const [rel, size, mtimeMs, hash] of stamp.inputs) {
    const full = join(root, rel)
    let s
    try {
      s = statSync(full)
    } catch {
      missing ??= rel
      continue
    }
    present++
    if (s.size !== size) return `${rel} changed since it was built`
    if (s.mtimeMs !== mtimeMs && (await sha256(full)) !== hash) return `${rel} changed since it was built`
  }
  if (missing !== null && present > 0) return `${missing} was removed since it was built`
  return null
}
