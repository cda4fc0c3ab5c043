// @vitest-environment node
/**
 * Issue 31, "no stale verdict": an attacker whose configuration changed never resumes the experiment of another.
 * The reproduction: a template run with a losing payload, then the same threat model with a winning payload into
 * the same results folder (before, the second printed `task 1/1 done runs=1 best=0.00`: the first run's verdict,
 * resumed). `run`, `sweep` and `frontier` in process, against the demo assistant on a real loopback server.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTargetServer, type RunningTargetServer } from '../servers/target'
import { referenceTargetOptions } from '../reference-targets'
import { shippedClaim } from '../testing/threatModelHarness'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'redscope-attacker-identity-'))
let assistant: RunningTargetServer
/** One task: the undefended assistant, which the goal pasted as an email ('naive') breaks and small talk does not. */
const CLAIM = join(dir, 'undefended.json')
const HARMLESS = 'Hello, have a nice day.'

beforeAll(async () => {
  assistant = await createTargetServer(referenceTargetOptions('assistant')).listen(0)
  const claim = shippedClaim('assistant-exfiltration.json')
  writeFileSync(CLAIM, JSON.stringify({ ...claim, name: 'undefended', tasks: claim.tasks.filter((t) => t.config.defence === 'none') }))
})
afterAll(async () => {
  await assistant.close()
  rmSync(dir, { recursive: true, force: true })
})

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

// One run a task: a template attacker cycles through its payloads until a success or the cap (100 by default), and
// what is checked here is which folder a configuration opens, not how often a harmless payload loses.
const ONE_RUN = ['--max-runs', '1']
// Two to four commands a test, each a few seconds on a shared machine: more than vitest's 5 s default.
const attack = (out: string, ...extra: string[]) =>
  run('run', '--target', assistant.url, '--claim', CLAIM, '--scope', 'inbox', ...ONE_RUN, '--out', out, ...extra)
const experiments = (out: string) =>
  readdirSync(out, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
const taskLine = (stdout: string) =>
  stdout
    .split('\n')
    .find((l) => l.startsWith('task 1/1'))
    ?.split(/\s+/)
    .slice(0, 4)
    .join(' ')
const folderOf = (stdout: string) => /^(\S+):/.exec(stdout)![1]
const attackerConfig = (out: string, folder: string) =>
  JSON.parse(readFileSync(join(out, folder, 'attacker_config.json'), 'utf8')) as { config: Record<string, unknown> }

describe('redscope run: a changed attacker is a new experiment', () => {
  it('a winning payload after a losing one into the same --out runs afresh, in its own folder; the same payload again resumes', async () => {
    const out = join(dir, 'run')
    const losing = await attack(out, '--template', HARMLESS)
    expect(losing.stderr).toBe('')
    expect(taskLine(losing.stdout)).toBe('task 1/1 max_runs runs=1')

    const winning = await attack(out, '--template', 'naive')
    expect(winning.stderr).toBe('')
    expect(taskLine(winning.stdout)).toBe('task 1/1 success runs=1')
    expect(winning.stdout).toContain('ASR 100% (1 of 1 task, 95% CI 20–100%)')
    // Each configuration has its own label, derived from it (the kind and a short hash), and its own folder.
    const [a, b] = [folderOf(losing.stdout), folderOf(winning.stdout)]
    expect(a).toMatch(/^template-[0-9a-f]{8}__redscope-assistant__undefended__no-llm-[0-9a-f]{8}$/)
    expect(b).toMatch(/^template-[0-9a-f]{8}__redscope-assistant__undefended__no-llm-[0-9a-f]{8}$/)
    expect(a).not.toBe(b)
    expect(experiments(out)).toEqual([a, b].sort())
    // The label is shown with what it stands for, and the folder records the whole configuration.
    expect(losing.stdout).toContain(`attacker ${a.split('__')[0]}: template, 1 payload ("${HARMLESS}"), injected before calls`)
    expect(attackerConfig(out, a).config).toEqual({ kind: 'template', templates: [HARMLESS], inject_on: 'pre' })
    expect(attackerConfig(out, b).config).toEqual({ kind: 'template', templates: ['{instruction}'], inject_on: 'pre' })

    // The identical configuration resumes its own experiment: the task is kept, not rerun, and no folder is added.
    const taskJson = join(out, b, 'tasks', readdirSync(join(out, b, 'tasks'))[0], 'task.json')
    const before = readFileSync(taskJson, 'utf8')
    const again = await attack(out, '--template', 'naive')
    expect(again.code).toBe(0)
    expect(folderOf(again.stdout)).toBe(b)
    expect(taskLine(again.stdout)).toBe('task 1/1 success runs=1')
    expect(readFileSync(taskJson, 'utf8')).toBe(before)
    expect(experiments(out)).toEqual([a, b].sort())
  }, 30_000)

  it('a forced --attacker-label that names another configuration is refused with exit 2, naming both; nothing is written', async () => {
    const out = join(dir, 'forced')
    const first = await attack(out, '--attacker-label', 'mine', '--template', HARMLESS)
    expect(first.code).toBe(0)
    const folder = folderOf(first.stdout)
    expect(folder).toMatch(/^mine__redscope-assistant__undefended__no-llm-[0-9a-f]{8}$/)
    const manifest = readFileSync(join(out, folder, 'manifest.json'), 'utf8')

    const clash = await attack(out, '--attacker-label', 'mine', '--template', 'naive')
    expect(clash.code).toBe(2)
    expect(clash.stdout).toBe('')
    expect(clash.stderr.split('\n').filter(Boolean)).toHaveLength(1)
    expect(clash.stderr).toContain(
      `redscope run: --attacker-label mine: ${join(out, folder)} holds the results of another attacker configuration`,
    )
    expect(clash.stderr).toContain(`it holds template, 1 payload ("${HARMLESS}"), injected before calls`)
    expect(clash.stderr).toContain('this run asks for template, 1 payload ("{instruction}"), injected before calls')
    expect(clash.stderr).toContain('(they differ in templates)')
    expect(readFileSync(join(out, folder, 'manifest.json'), 'utf8')).toBe(manifest)
    expect(existsSync(join(out, folder, 'previous_01'))).toBe(false)

    // The same forced label with the configuration it holds resumes.
    const same = await attack(out, '--attacker-label', 'mine', '--template', HARMLESS)
    expect(same.code).toBe(0)
    expect(folderOf(same.stdout)).toBe(folder)
  }, 30_000)

  it('a forced label on a folder that records no configuration (an older redscope, superred) is refused too', async () => {
    const out = join(dir, 'unrecorded')
    const first = await attack(out, '--attacker-label', 'old', '--template', HARMLESS)
    const folder = folderOf(first.stdout)
    rmSync(join(out, folder, 'attacker_config.json'))
    const again = await attack(out, '--attacker-label', 'old', '--template', HARMLESS)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('it holds no record of its attacker configuration (written by superred or an older redscope)')
  }, 30_000)
})

describe('redscope sweep and frontier: the same rule', () => {
  it("a sweep after a run with another payload does not keep the run's verdict; a forced clashing label is refused", async () => {
    const out = join(dir, 'sweep')
    expect((await attack(out, '--template', HARMLESS)).code).toBe(0)
    const sweep = await run(
      'sweep',
      '--target',
      assistant.url,
      '--claim',
      CLAIM,
      '--threat-models',
      writeModels([['inbox']]),
      '--template',
      'naive',
      ...ONE_RUN,
      '--out',
      out,
    )
    expect(sweep.stderr).toBe('')
    expect(sweep.stdout).toMatch(/\[1\/1\] #\d+ \[inbox\]: ASR 100% \(1 of 1 task, 95% CI 20–100%\)/)
    expect(experiments(out)).toHaveLength(2)

    const forced = join(dir, 'sweep-forced')
    expect((await attack(forced, '--attacker-label', 'mine', '--template', HARMLESS)).code).toBe(0)
    const clash = await run(
      'sweep',
      '--target',
      assistant.url,
      '--claim',
      CLAIM,
      '--threat-models',
      writeModels([['inbox']]),
      '--template',
      'naive',
      ...ONE_RUN,
      '--attacker-label',
      'mine',
      '--out',
      forced,
    )
    expect(clash.code).toBe(2)
    expect(clash.stderr).toContain('redscope sweep: --attacker-label mine: ')
    expect(clash.stderr).toContain(`it holds template, 1 payload ("${HARMLESS}")`)
    expect(clash.stderr).toContain('this run asks for template, 1 payload ("{instruction}")')
    expect(existsSync(join(forced, 'sweep.json'))).toBe(false)
  }, 30_000)

  it('a frontier search does not read back a run of another payload; a forced clashing label is refused', async () => {
    const out = join(dir, 'frontier')
    expect((await attack(out, '--template', HARMLESS)).code).toBe(0)
    const search = await run(
      'frontier',
      '--target',
      assistant.url,
      '--claim',
      CLAIM,
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--out',
      out,
    )
    expect(search.stderr).toBe('')
    expect(search.code).toBe(0)
    // [inbox] wins for this payload: the harmless run's loss, kept in its own folder, decides nothing here.
    const frontier = JSON.parse(readFileSync(join(out, 'frontier.json'), 'utf8')) as { claim: { minimal_wins: Array<{ scope: string[] }> } }
    expect(frontier.claim.minimal_wins.map((m) => m.scope)).toContainEqual(['inbox'])

    const forced = join(dir, 'frontier-forced')
    expect((await attack(forced, '--attacker-label', 'mine', '--template', HARMLESS)).code).toBe(0)
    const clash = await run(
      'frontier',
      '--target',
      assistant.url,
      '--claim',
      CLAIM,
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--attacker-label',
      'mine',
      '--out',
      forced,
    )
    expect(clash.code).toBe(2)
    expect(clash.stderr).toContain('redscope frontier: --attacker-label mine: ')
    expect(existsSync(join(forced, 'frontier.json'))).toBe(false)
  }, 30_000)
})

let models = 0
function writeModels(scopes: string[][]): string {
  const path = join(dir, `models-${models++}.json`)
  writeFileSync(path, JSON.stringify(scopes))
  return path
}
