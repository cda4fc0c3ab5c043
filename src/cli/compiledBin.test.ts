// @vitest-environment node
/**
 * bin/redscope.mjs runs the compiled CLI, and refuses a build older than its
 * sources rather than run old code. Checked on a copy of the bin in a small
 * package of its own, whose "compiled CLI" says that it ran.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeStamp } from '../../scripts/buildStamp.mjs'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

// Each test's package, removed after it (also when it failed).
const made: string[] = []
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true })
})

function fakePackage() {
  const root = mkdtempSync(join(tmpdir(), 'redscope-bin-'))
  made.push(root)
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  for (const rel of ['bin/redscope.mjs', 'scripts/buildStamp.mjs']) {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    copyFileSync(join(repo, rel), join(root, rel))
  }
  put('src/cli/main.ts', 'export const version = 1\n')
  put('src/cli/other.ts', 'export const other = 1\n')
  put('dist-cli/main.js', "export async function main(argv, io) { io.stdout(`compiled main ran: ${argv.join(' ')}\\n`); return 0 }\n")
  return { root, put }
}

const built = async (root: string) => writeStamp(root, join(root, 'dist-cli', 'build-inputs.json'), ['src/cli/main.ts', 'src/cli/other.ts'])
const bin = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin', 'redscope.mjs'), ...args], { encoding: 'utf8' })

// Each test starts node a few times: on a busy machine that takes seconds.
describe('bin/redscope.mjs and its build', { timeout: 60_000 }, () => {
  it('runs the compiled CLI when the build matches its sources, also after a checkout touched them', async () => {
    const { root } = fakePackage()
    await built(root)
    const r = bin(root, 'combinations', '--help')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('compiled main ran: combinations --help\n')
    const later = new Date(Date.now() + 60_000)
    utimesSync(join(root, 'src/cli/main.ts'), later, later)
    expect(bin(root, '--help').status).toBe(0)
  })

  it('refuses a build older than a changed source: one line naming the file and the fix, exit 2, nothing run', async () => {
    const { root, put } = fakePackage()
    await built(root)
    put('src/cli/other.ts', 'export const other = 2\n')
    const r = bin(root, '--help')
    expect(r.status).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'redscope: the compiled CLI is out of date: src/cli/other.ts changed since it was built. ' +
        'Run `npm run build:cli` (or `npm run build`) first.\n',
    )
  })

  it('refuses a build whose source was removed, and a missing build', async () => {
    const { root } = fakePackage()
    await built(root)
    rmSync(join(root, 'src/cli/other.ts'))
    expect(bin(root, '--help').stderr).toMatch(/src\/cli\/other\.ts was removed since it was built/)
    rmSync(join(root, 'dist-cli'), { recursive: true })
    const r = bin(root, '--help')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(
      /^redscope: the compiled CLI is out of date: it is not built \(dist-cli\/build-inputs\.json is missing\)\. Run `npm run build:cli`/,
    )
  })

  it('an installed copy without its sources runs its build', async () => {
    const { root } = fakePackage()
    await built(root)
    rmSync(join(root, 'src'), { recursive: true })
    expect(bin(root, 'results', 'x').stdout).toBe('compiled main ran: results x\n')
  })
})

describe('the real build', () => {
  it("the entry loads no command's code and no dependency: --help pays only for the registry", () => {
    const entry = readFileSync(join(repo, 'dist-cli', 'main.js'), 'utf8')
    const staticImports = [...entry.matchAll(/^import\s.*?from\s+["']([^"']+)["']/gm)].map((m) => m[1])
    expect(staticImports).toEqual(['node:util'])
    // Each command is a chunk of its own, imported when it runs.
    const lazy = [...entry.matchAll(/import\(["']\.\/chunks\/([a-zA-Z]+)-[\w-]+\.js["']\)/g)].map((m) => m[1]).sort()
    expect(lazy).toEqual([
      'bundle',
      'checkScope',
      'combinations',
      'compare',
      'frontier',
      'merge',
      'models',
      'results',
      'run',
      'serveLlm',
      'serveTarget',
      'sweep',
      'view',
    ])
  })

  it("node-llama-cpp (optional) stays outside the build, imported dynamically by serve-llm's chunk alone", () => {
    const files = ['main.js', ...readdirSync(join(repo, 'dist-cli', 'chunks')).map((f) => join('chunks', f))].filter((f) =>
      f.endsWith('.js'),
    )
    const importing = files.filter((f) =>
      /\bimport\s*\(\s*["']node-llama-cpp["']\s*\)|from\s+["']node-llama-cpp["']/.test(readFileSync(join(repo, 'dist-cli', f), 'utf8')),
    )
    expect(importing).toHaveLength(1)
    expect(importing[0]).toMatch(/^chunks\/serveLlm-/)
    const chunk = readFileSync(join(repo, 'dist-cli', importing[0]), 'utf8')
    expect(chunk).not.toMatch(/from\s+["']node-llama-cpp["']/)
  })
})
