// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AGENTDOJO_FOREST, CHATBOT_FOREST } from '../core/tags'
import { main } from './main'
import { COMMANDS } from './registry'

const dir = mkdtempSync(join(tmpdir(), 'redscope-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string, content: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' || content instanceof Buffer ? content : JSON.stringify(content))
  return path
}
const chatbot = file('chatbot.json', CHATBOT_FOREST)

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

describe('redscope combinations', () => {
  it('prints every combination in the reference order, names sorted inside', async () => {
    const two = file('two.json', {
      tags: [
        { name: 'root', parent: null },
        { name: 'right', parent: 'root' },
        { name: 'left', parent: 'root' },
      ],
    })
    const r = await run('combinations', two)
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual([[], ['left'], ['right'], ['left', 'right'], ['root']])
    expect(r.stderr).toBe('')
  })

  it('--count prints the exact count as a bare integer', async () => {
    expect((await run('combinations', chatbot, '--count')).stdout).toBe('18\n')
    expect((await run('combinations', file('dojo.json', AGENTDOJO_FOREST), '--count')).stdout).toBe('351974\n')
  })

  it('chatbot: 18 distinct arrays, empty first', async () => {
    const combos: string[][] = JSON.parse((await run('combinations', chatbot)).stdout)
    expect(combos).toHaveLength(18)
    expect(combos[0]).toEqual([])
    expect(new Set(combos.map((c) => c.join())).size).toBe(18)
  })
})

describe('redscope check-scope', () => {
  it('exit 0 and [] for a clean scope', async () => {
    const r = await run('check-scope', chatbot, '--scope', 'user', '--read-only', 'system_prompt')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual([])
  })

  it('exit 1 with the findings when there is an error', async () => {
    const r = await run('check-scope', chatbot, '--scope', 'system,system_prompt')
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ code: 'scope_not_antichain', severity: 'error', tags: ['system_prompt', 'system'] })
  })

  it('warnings and infos alone exit 0; read-only alone is valid', async () => {
    const r = await run('check-scope', chatbot, '--scope', 'system_prompt', '--read-only', 'system')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).map((f: { code: string }) => f.code)).toEqual(['scope_under_read_only'])
    expect((await run('check-scope', chatbot, '--read-only', 'model')).code).toBe(0)
  })

  it('an empty scope is an error finding', async () => {
    const r = await run('check-scope', chatbot)
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)[0].code).toBe('empty_scope')
  })
})

describe('bad input: one line on stderr naming the file, exit 2, nothing on stdout', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing file', join(dir, 'absent.json'), /absent\.json: no such file/],
    ['not JSON', file('broken.json', '{"tags": ['), /broken\.json: not valid JSON/],
    // Latin-1 "café": a lenient reader would take U+FFFD for é and go on with another tag's name.
    [
      'not UTF-8',
      file('latin1.json', Buffer.from('{"tags": [{"name": "caf\xe9", "parent": null}]}', 'latin1')),
      /latin1\.json: not UTF-8 text: the byte 0xe9 at offset 23 begins no valid UTF-8 character/,
    ],
    ['wrong shape', file('shape.json', { tags: [{ name: 7 }] }), /shape\.json: not a forest file: tags\[0\]\.name/],
    [
      'duplicate',
      file('dup.json', {
        tags: [
          { name: 'a', parent: null },
          { name: 'a', parent: null },
        ],
      }),
      /dup\.json: Duplicate tag name: 'a'/,
    ],
    [
      'dangling parent',
      file('dangling.json', { tags: [{ name: 'c', parent: 'p' }] }),
      /dangling\.json: Tag 'c' has parent 'p' which is not in the domain/,
    ],
    [
      'cycle',
      file('cycle.json', {
        tags: [
          { name: 'a', parent: 'b' },
          { name: 'b', parent: 'a' },
        ],
      }),
      /cycle\.json: Tag 'a' is its own ancestor/,
    ],
  ]
  for (const [label, path, pattern] of cases) {
    it(label, async () => {
      for (const argv of [
        ['combinations', path],
        ['check-scope', path, '--scope', 'a'],
      ]) {
        const r = await run(...argv)
        expect(r.code).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr).toMatch(pattern)
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
      }
    })
  }

  it('unknown flags and commands are usage errors', async () => {
    expect((await run('combinations', chatbot, '--frobnicate')).code).toBe(2)
    expect((await run('teleport')).code).toBe(2)
  })
})

describe('the installed bin', () => {
  it('runs through npx-style node bin/redscope.mjs with real exit codes and streams', () => {
    const ok = spawnSync(process.execPath, ['bin/redscope.mjs', 'combinations', chatbot, '--count'], { encoding: 'utf8' })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toBe('18\n')
    const bad = spawnSync(process.execPath, ['bin/redscope.mjs', 'check-scope', join(dir, 'absent.json'), '--scope', 'x'], {
      encoding: 'utf8',
    })
    expect(bad.status).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toMatch(/absent\.json/)
  }, 20_000)
})

describe('help and usage', () => {
  // Every registered command, so that a new one is checked without editing this test.
  const names = COMMANDS.map((c) => c.name)

  it('every command answers --help (and -h, and `help NAME`) with its usage, options and examples, exit 0', async () => {
    for (const name of names) {
      const r = await run(name, '--help')
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('')
      expect(r.stdout).toMatch(new RegExp(`^redscope ${name}: .+\\n\\nUsage: redscope ${name}\\b`))
      expect(r.stdout).toContain('  -h, --help')
      expect(r.stdout).toMatch(/\nExamples:\n {2}# .+\n {2}redscope /)
      expect((await run(name, '-h')).stdout).toBe(r.stdout)
      expect((await run('help', name)).stdout).toBe(r.stdout)
      // --help wins over whatever else is wrong on the line.
      expect((await run(name, '--frobnicate', '--help')).code).toBe(0)
    }
    const runHelp = (await run('run', '--help')).stdout
    for (const flag of [
      '--target URL',
      '--claim CLAIM.json',
      '--scope TAGS',
      '--optimizer KIND',
      '--max-runs N',
      '--no-feedback',
      '--out DIR',
    ]) {
      expect(runHelp).toContain(flag)
    }
  })

  it('the overview lists every command; alone, redscope prints it on stderr with exit 2', async () => {
    const help = await run('--help')
    expect(help.code).toBe(0)
    for (const name of names) expect(help.stdout).toMatch(new RegExp(`\\n {2}${name} +\\S`))
    const bare = await run()
    expect(bare.code).toBe(2)
    expect(bare.stderr).toBe(help.stdout)
  })

  const oneLine = async (argv: string[], message: string) => {
    const r = await run(...argv)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`${message}\n`)
  }

  it('usage errors are one line naming what is wrong, exit 2', async () => {
    await oneLine(
      ['combinations', chatbot, '--frobnicate'],
      "redscope combinations: unknown option --frobnicate (see 'redscope combinations --help')",
    )
    await oneLine(['combinations', chatbot, '-x'], "redscope combinations: unknown option -x (see 'redscope combinations --help')")
    await oneLine(['combinations', chatbot, '--count=yes'], 'redscope combinations: --count takes no value')
    await oneLine(['check-scope', chatbot, '--scope'], 'redscope check-scope: --scope needs a value (TAGS)')
    await oneLine(['check-scope', chatbot, '--scope', '--read-only', 'x'], 'redscope check-scope: --scope needs a value (TAGS)')
    await oneLine(
      ['combinations', chatbot, 'extra'],
      "redscope combinations: unexpected argument 'extra' (usage: redscope combinations FOREST.json [options]; see 'redscope combinations --help')",
    )
    await oneLine(['results'], "redscope results: missing DIR (usage: redscope results DIR; see 'redscope results --help')")
    await oneLine(
      ['run', '--claim', 'c.json'],
      "redscope run: --target is required (usage: redscope run --target URL [options]; see 'redscope run --help')",
    )
    const unknown = `redscope: unknown command 'teleport' (commands: ${names.join(', ')}; see 'redscope --help')`
    await oneLine(['teleport'], unknown)
    await oneLine(['help', 'teleport'], unknown)
  })

  it('values: repeated and comma lists add up, --opt=value works, and -- ends the options', async () => {
    const r = await run('check-scope', chatbot, '--scope=user', '--scope', 'model', '--read-only', 'system_prompt')
    expect(r.code).toBe(0)
    // After --, "--count" is the forest file's name, not the option.
    await oneLine(['combinations', '--', '--count'], 'redscope combinations: --count: no such file')
  })
})
