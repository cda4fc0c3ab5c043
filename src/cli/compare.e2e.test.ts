// @vitest-environment node
/**
 * `redscope compare` on real results: the demo assistant served twice by the
 * CLI, once as it is and once as a regressed build (`--weaken-defence
 * delimiters`: a session set to `delimiters` runs with no defence). The same
 * sweep and frontier search against each give BASE and HEAD, built once for
 * the file. Brute force predicts the regressions from BASE alone: the
 * delimiters task of a threat model regresses exactly when, in BASE, that
 * threat model broke the undefended task and not the delimited one.
 * JUnit is parsed as XML, SARIF validated against the SARIF 2.1.0 JSON Schema
 * (vendored in src/testing/fixtures: nothing is fetched at test time).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { JSDOM } from 'jsdom'
import { CliProcesses, runCli } from '../testing/cliProcesses'
import { runMain as run, servedAssistant } from '../testing/servedAssistant'

const CLAIM = 'public/claims/assistant-exfiltration.json'
const ATTACKER = ['--claim', CLAIM, '--template', 'naive', '--max-runs', '1']
const SCHEMA = join(import.meta.dirname, '..', 'testing', 'fixtures', 'sarif-schema-2.1.0.json')

const served = servedAssistant('redscope-compare-')
const dir = served.dir
const procs = new CliProcesses()
let regressed = ''
const base = join(dir, 'base')
const head = join(dir, 'head')

interface Manifest {
  experiment: { scope: string[] }
  tasks: Array<{ index: number; success: boolean; status: string }>
}
const manifests = (root: string) =>
  new Map(
    (JSON.parse(readFileSync(join(root, 'sweep.json'), 'utf8')) as { models: Array<{ dir: string; scope: string[] }> }).models.map((m) => [
      [...m.scope].sort().join(','),
      JSON.parse(readFileSync(join(root, m.dir, 'manifest.json'), 'utf8')) as Manifest,
    ]),
  )

beforeAll(async () => {
  const p = procs.start(['serve-target', 'assistant', '--port', '0', '--concurrency', '16', '--weaken-defence', 'delimiters'])
  regressed = (await p.waitFor(/serving assistant at (http:\/\/127\.0\.0\.1:\d+)/))[1]
  // Every threat model holding `tools`: 18 of them, some that the weakened defence lets through and some not.
  const sweeps = await Promise.all([
    run('sweep', '--target', served.target, ...ATTACKER, '--containing', 'tools', '--parallel', '8', '--out', base),
    run('sweep', '--target', regressed, ...ATTACKER, '--containing', 'tools', '--parallel', '8', '--out', head),
    run('frontier', '--target', served.target, ...ATTACKER, '--per-task', '--out', join(dir, 'frontier-base')),
    run('frontier', '--target', regressed, ...ATTACKER, '--per-task', '--out', join(dir, 'frontier-head')),
  ])
  for (const s of sweeps) expect(s.code, s.stderr).toBe(0)
}, 120_000)
afterAll(() => procs.stopAll())

describe('redscope compare on a regressed build of the demo assistant', () => {
  it('finds exactly the regressions brute force predicts, and gates on them', async () => {
    const b = manifests(base)
    const h = manifests(head)
    expect(b.size).toBe(18)
    const predicted = [...b]
      .filter(([, m]) => m.tasks[0].success && !m.tasks[1].success)
      .map(([k]) => k)
      .sort()
    // Brute force over the trees themselves: every task held in BASE and breached in HEAD.
    const bruteForce = [...b]
      .flatMap(([k, m]) =>
        m.tasks.filter((t) => !t.success && h.get(k)!.tasks.find((u) => u.index === t.index)!.success).map((t) => `${k}#${t.index}`),
      )
      .sort()
    expect(bruteForce).toEqual(predicted.map((k) => `${k}#2`))
    expect(predicted.length).toBeGreaterThan(0)
    expect(predicted.length).toBeLessThan(18)

    const r = await run('compare', base, head, '--json', '--fail-on', 'regression')
    expect(r.code).toBe(1)
    const c = JSON.parse(r.stdout) as {
      counts: Record<string, number>
      models: Array<{ scope: string[]; tasks: Array<{ change: string; base: { index: number } }> }>
    }
    const found = c.models
      .flatMap((m) => m.tasks.filter((t) => t.change === 'regression').map((t) => `${[...m.scope].sort().join(',')}#${t.base.index}`))
      .sort()
    expect(found).toEqual(bruteForce)
    expect(c.counts).toMatchObject({
      regressions: predicted.length,
      fixes: 0,
      onlyBase: 0,
      onlyHead: 0,
      unchanged: 18 * 4 - predicted.length,
    })
    expect(r.stderr).toMatch(new RegExp(`^--fail-on regression: ${predicted.length} task\\(s\\) held in BASE and breached in HEAD: `))

    // The table, regressions on top; the same results both ways round are fixes, and against themselves nothing.
    const table = await run('compare', base, head)
    expect(table.code).toBe(0)
    expect(table.stdout.split('\n')[4]).toMatch(/^held→breached /)
    const back = await run('compare', head, base, '--fail-on', 'regression')
    expect([back.code, back.stdout.split('\n')[1]]).toEqual([
      0,
      `0 regression(s) (held→breached), ${predicted.length} fix(es) (breached→held), ${18 * 4 - predicted.length} unchanged, 0 only in BASE, 0 only in HEAD, 0 not measured on a side; ${[...b.values()].reduce((n, m) => n + m.tasks.filter((t) => t.success).length, 0)} breached in HEAD`,
    ])
    expect((await run('compare', base, base, '--fail-on', 'regression')).code).toBe(0)
    expect((await run('compare', base, base, '--fail-on', 'breach')).code).toBe(1)
  })

  it('writes JUnit that parses, one testcase per threat model × task, failing where breached', async () => {
    const out = join(dir, 'reports')
    const r = await runCli([
      'compare',
      base,
      head,
      '--junit',
      join(out, 'redteam.xml'),
      '--sarif',
      join(out, 'redteam.sarif'),
      '--sarif-location',
      'FOREST.json',
    ])
    expect(r.code).toBe(0)
    const doc = new new JSDOM('').window.DOMParser().parseFromString(readFileSync(join(out, 'redteam.xml'), 'utf8'), 'application/xml')
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
    const root = doc.documentElement
    expect(root.tagName).toBe('testsuites')
    const cases = [...doc.getElementsByTagName('testcase')]
    expect(cases).toHaveLength(18 * 4)
    const failing = cases.filter((t) => t.getElementsByTagName('failure').length > 0)
    const breached = [...manifests(head).values()].reduce((n, m) => n + m.tasks.filter((t) => t.success).length, 0)
    expect(failing).toHaveLength(breached)
    expect(root.getAttribute('failures')).toBe(String(breached))
    expect(doc.getElementsByTagName('testsuite')).toHaveLength(18)
    expect(failing.filter((t) => t.getElementsByTagName('failure')[0].getAttribute('message')!.includes('a regression'))).toHaveLength(
      JSON.parse((await run('compare', base, head, '--json')).stdout).counts.regressions as number,
    )
  })

  it('writes SARIF 2.1.0 that the schema accepts, a result per breach with a stable fingerprint', async () => {
    const out = join(dir, 'sarif')
    const once = await run('compare', base, head, '--sarif', join(out, 'a.sarif'), '--sarif-location', 'FOREST.json')
    const again = await run('compare', base, head, '--sarif', join(out, 'b.sarif'))
    expect([once.code, again.code]).toEqual([0, 0])
    const log = JSON.parse(readFileSync(join(out, 'a.sarif'), 'utf8')) as {
      runs: Array<{ results: Array<Record<string, unknown>>; tool: { driver: { rules: unknown[] } } }>
    }
    const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(
      JSON.parse(readFileSync(SCHEMA, 'utf8')) as object,
    )
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    const results = log.runs[0].results
    const breached = [...manifests(head).values()].reduce((n, m) => n + m.tasks.filter((t) => t.success).length, 0)
    expect(results).toHaveLength(breached)
    expect(log.runs[0].tool.driver.rules).toHaveLength(4)
    const prints = (l: typeof log) =>
      l.runs[0].results.map((x) => (x.partialFingerprints as Record<string, string>)['redscopeThreatModelTask/v1'])
    expect(new Set(prints(log)).size).toBe(breached)
    // Another run of the same results (another file, no location flag) fingerprints every finding the same.
    const other = JSON.parse(readFileSync(join(out, 'b.sarif'), 'utf8')) as typeof log
    expect(prints(other)).toEqual(prints(log))
    expect(
      (results[0].locations as Array<{ physicalLocation: { artifactLocation: { uri: string } } }>)[0].physicalLocation.artifactLocation.uri,
    ).toBe('FOREST.json')
  })

  it('reports the minimal winning threat models new in HEAD from two frontier searches', async () => {
    const r = await run('compare', join(dir, 'frontier-base'), join(dir, 'frontier-head'), '--json', '--fail-on', 'regression')
    expect(r.code).toBe(1)
    const c = JSON.parse(r.stdout) as {
      frontier: Array<{ question: string; newInHead: Array<{ words: string }>; goneFromHead: unknown[] }>
    }
    const [claim, ...tasks] = c.frontier
    // The claim is broken by the weakest attackers through the undefended task on both builds; the delimited task changes.
    expect(claim.newInHead).toEqual([])
    expect(tasks).toHaveLength(4)
    expect(tasks[1].question).toMatch(/\[defence=delimiters, /)
    expect(tasks[1].newInHead.length).toBeGreaterThan(0)
    expect([tasks[0], tasks[2], tasks[3]].map((t) => t.newInHead.length + t.goneFromHead.length)).toEqual([0, 0, 0])
    expect(r.stdout).not.toBe('')
  })

  it('refuses bad input with one line naming the path, exit 2, nothing written', async () => {
    const bad = join(dir, 'bad')
    mkdirSync(join(bad, 'empty'), { recursive: true })
    const truncated = join(bad, 'truncated')
    const [first] = (JSON.parse(readFileSync(join(base, 'sweep.json'), 'utf8')) as { models: Array<{ dir: string }> }).models
    mkdirSync(join(truncated, first.dir), { recursive: true })
    const text = readFileSync(join(base, first.dir, 'manifest.json'), 'utf8')
    writeFileSync(join(truncated, first.dir, 'manifest.json'), text.slice(0, 200))
    const other = join(bad, 'other-claim')
    const r0 = await run(
      'sweep',
      '--target',
      served.target,
      '--claim',
      'public/claims/assistant-file-share.json',
      '--template',
      'naive',
      '--max-runs',
      '1',
      '--indices',
      '1-2',
      '--out',
      other,
    )
    expect(r0.code).toBe(0)
    const junit = join(bad, 'out.xml')
    const cases: Array<[string, RegExp]> = [
      [join(bad, 'empty'), new RegExp(`^${join(bad, 'empty')}: not a results tree \\(`)],
      [truncated, new RegExp(`^${join(truncated, first.dir, 'manifest.json')}: not JSON`)],
      [other, new RegExp(`^${other}: measures claim assistant-file-share, ${base} measures claim assistant-exfiltration: `)],
      [join(bad, 'missing'), new RegExp(`^${join(bad, 'missing')}: no such folder \\(HEAD\\)`)],
    ]
    for (const [path, message] of cases) {
      const r = await runCli(['compare', base, path, '--junit', junit, '--sarif', join(bad, 'out.sarif')])
      expect(r.code).toBe(2)
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(new RegExp(`^redscope compare: ${message.source.slice(1)}`))
      expect(existsSync(junit)).toBe(false)
    }
    expect((await run('compare', base, head, '--fail-on', 'asr>2')).code).toBe(2)
  })

  it('gates a sweep and a frontier search without a baseline: --fail-on breach, --junit, --sarif at the target URL', async () => {
    const out = join(dir, 'gate')
    // The same sweep again resumes (every task kept), then gates its results.
    const r = await run(
      'sweep',
      '--target',
      served.target,
      ...ATTACKER,
      '--containing',
      'tools',
      '--out',
      base,
      '--fail-on',
      'breach',
      '--junit',
      join(out, 'sweep.xml'),
      '--sarif',
      join(out, 'sweep.sarif'),
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^--fail-on breach: \d+ task\(s\) breached: /m)
    const log = JSON.parse(readFileSync(join(out, 'sweep.sarif'), 'utf8')) as {
      runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }>
    }
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(`${served.target}/`)
    expect(readFileSync(join(out, 'sweep.xml'), 'utf8')).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="redscope" tests="72" /,
    )
    const f = await run(
      'frontier',
      '--target',
      served.target,
      ...ATTACKER,
      '--per-task',
      '--out',
      join(dir, 'frontier-base'),
      '--fail-on',
      'asr>0.999',
    )
    expect([f.code, f.stderr]).toEqual([1, expect.stringMatching(/^--fail-on asr>0.999: \d+ threat model\(s\) above 99.9%: /)])
    const refused = await run(
      'sweep',
      '--target',
      served.target,
      ...ATTACKER,
      '--containing',
      'tools',
      '--out',
      base,
      '--fail-on',
      'regression',
    )
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringMatching(/--fail-on regression needs a baseline: run `redscope compare BASE HEAD`/),
    ])
  })

  it('reads threat-models.json: sweep keeps its names, compare restricts to it and names them', async () => {
    const file = join(dir, 'threat-models.json')
    writeFileSync(
      file,
      JSON.stringify({
        v: 1,
        threat_models: [
          { name: 'Tool author', scope: ['tools'], read_only: [], notes: '' },
          { name: 'Tool author who knows the model', scope: ['tools', 'model_identity'], read_only: [], notes: '' },
        ],
      }),
    )
    const out = join(dir, 'named')
    expect((await run('sweep', '--target', served.target, ...ATTACKER, '--threat-models', file, '--out', out)).code).toBe(0)
    const record = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { models: Array<{ dir: string; name?: string }> }
    expect(record.models.map((m) => m.name).sort()).toEqual(['Tool author', 'Tool author who knows the model'])
    const saved = JSON.parse(readFileSync(join(out, record.models[0].dir, 'threat_model.json'), 'utf8')) as { name: string }
    expect(saved.name).toBe(record.models[0].name)
    const c = await run('compare', base, head, '--threat-models', file, '--json')
    const json = JSON.parse(c.stdout) as { models: Array<{ label: string }>; counts: { regressions: number } }
    expect(json.models.map((m) => m.label.replace(/ \(template-[0-9a-f]+\)$/, '')).sort()).toEqual([
      'Tool author',
      'Tool author who knows the model',
    ])
    expect(json.counts.regressions).toBe(
      [...manifests(base)].filter(([k, m]) => ['tools', 'model_identity,tools'].includes(k) && m.tasks[0].success && !m.tasks[1].success)
        .length,
    )
  })
})
