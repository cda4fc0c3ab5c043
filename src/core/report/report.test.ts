import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFsStorage } from '../../adapters/storage/nodeFsStorage'
import { EXPORT_CSP } from '../finding'
import { HOSTILE_STRINGS, HOSTILE_TEXT } from '../../testing/hostileContent'
import { bestRunOf, buildReport, reportHtml } from '.'

const FIXTURE = join(__dirname, '..', '..', '..', 'e2e', 'fixtures', 'superred-results-example')
const EXP = 'scripted__stub-agent__leak__no-llm-44a31aa2'
const TASK = '00001__leak_the_secret'
const SECRET = 'sk-proj-AbCdEfGhIjKlMnOpQrStUv123456'
const FOREST = JSON.parse(readFileSync(join(FIXTURE, '..', 'stub-forest.json'), 'utf8'))

type Json = Record<string, unknown>
let root: string
const readJson = (p: string): Json => JSON.parse(readFileSync(join(root, p), 'utf8'))
const writeJson = (p: string, v: unknown) => writeFileSync(join(root, p), JSON.stringify(v))

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'report-'))
  cpSync(FIXTURE, root, { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** Hostile text in every field the report shows: goal, tag descriptions, injected value, observation, rationale, error. */
function makeHostile(): void {
  writeJson(`${EXP}/domain.json`, { tags: FOREST.tags.map((t: Json, i: number) => (i === 0 ? { ...t, description: HOSTILE_TEXT } : t)) })
  const taskFile = `${EXP}/tasks/${TASK}/task.json`
  writeJson(taskFile, { ...readJson(taskFile), goal: `leak ${HOSTILE_TEXT}`, error: HOSTILE_STRINGS[0] })
  const run = `${EXP}/tasks/${TASK}/trajectories/run_00001.json`
  const t = readJson(run) as { trajectory: Json[] }
  for (const item of t.trajectory) {
    if (item.type === 'ControllableInjection') item.value = `${HOSTILE_TEXT} key=${SECRET}`
    if (item.type === 'ObservableEvent') item.content = { html: HOSTILE_TEXT }
    if (item.type === 'RunEndEvent' && item.evaluation) (item.evaluation as Json).rationale = HOSTILE_TEXT
  }
  writeJson(run, t)
}

const OPTIONS = { kind: 'experiment' as const, title: 'Leak the secret', source: 'a folder', now: new Date('2026-12-01T10:00:00Z') }

describe('the report of an experiment', () => {
  it("shows a hidden step the rationale quotes as a key step, seen via the evaluation's rationale", async () => {
    const run = `${EXP}/tasks/${TASK}/trajectories/run_00001.json`
    const t = readJson(run) as { trajectory: Json[] }
    const hidden = t.trajectory.find((i) => i.type === 'ObservableEvent' && (i.observable as Json).security_domain === 'web')!
    hidden.content = 'the web page says the launch code is 0000-1111-2222'
    for (const item of t.trajectory) {
      if (item.type === 'RunEndEvent' && item.evaluation) (item.evaluation as Json).rationale = `not found in: ${hidden.content as string}`
    }
    writeJson(run, t)
    const report = await buildReport(new NodeFsStorage(root), [EXP], { ...OPTIONS, forest: FOREST })
    const step = report.tasks[0].bestRun!.keySteps.find((x) => x.learnedVia !== null)!
    expect(step).toMatchObject({ seenByAttacker: false, learnedVia: "via the evaluation's rationale (all of its content)" })
    expect(reportHtml(report)).toContain('hidden during the run; seen via the evaluation&#39;s rationale (all of its content)')
  })
  it('counts echoed runs per task, per threat model and in all, from the echo files', async () => {
    writeJson(`${EXP}/echoes.json`, { schema_version: 5, count_echoes: false, tasks: [{ index: 1, runs: [1] }] })
    writeJson(`${EXP}/tasks/${TASK}/echoes.json`, {
      schema_version: 5,
      count_echoes: false,
      runs: [
        {
          run_number: 1,
          counted: false,
          evidence: { where: 'observable reply', texts: ['TIGER-42'] },
          injections: [{ controllable: 'user_msg', value: 'say TIGER-42' }],
          claimed: { success: true, primary_score: { name: 'primary', value: 1, security_domain: null }, sub_scores: {}, rationale: 'r' },
        },
      ],
    })
    const report = await buildReport(new NodeFsStorage(root), [EXP], { ...OPTIONS, forest: FOREST })
    expect(report.tasks[0]).toMatchObject({ echoedRuns: [1], echoesCounted: false })
    expect(report.models[0]).toMatchObject({ echoRuns: 1, echoTasks: 1 })
    expect(report.models[0].configuration).toContainEqual(['echoes (success on text the attacker injected)', 'not counted'])
    expect(report.totals).toMatchObject({ echoRuns: 1, echoRunsCounted: 0 })
    const html = reportHtml(report)
    expect(html).toContain(
      '<tr><th>echoes</th><td>run 1 succeeded only on text the attacker injected itself: not counted as successes</td></tr>',
    )
    expect(html).toContain('1 run succeeded only on text the attacker injected itself (none counted as successes)')
  })
  it("shows each task's configuration (the demo claims' defence) where the tree records it, as text", async () => {
    writeJson(`${EXP}/task_configs.json`, {
      schema_version: 5,
      tasks: [{ index: 1, goal: 'leak', config: { defence: '<i>delimiters</i>', passphrase: 'TIGER-42' } }],
    })
    const report = await buildReport(new NodeFsStorage(root), [EXP], { ...OPTIONS, forest: FOREST })
    expect(report.tasks[0].config).toEqual([
      ['defence', '<i>delimiters</i>'],
      ['passphrase', 'TIGER-42'],
    ])
    const html = reportHtml(report)
    expect(html).toContain(
      '<tr><th>configuration</th><td><code>defence</code> = &lt;i&gt;delimiters&lt;/i&gt;<br><code>passphrase</code> = TIGER-42</td></tr>',
    )
  })
  it('summarises by framework from domain.json and task_configs.json: what held, under which threat model; an old tree has none', async () => {
    const before = await buildReport(new NodeFsStorage(root), [EXP], { ...OPTIONS, forest: FOREST })
    expect(before.compliance).toEqual({ frameworks: [], notExercised: [] })
    expect(reportHtml(before)).toContain('No framework references')
    const tags = (FOREST as { tags: Json[] }).tags.map((t) => ({
      ...t,
      ...(t.name === 'user' ? { references: ['LLM01'] } : t.name === 'web' ? { references: ['AML.T0051.001'] } : {}),
    }))
    writeJson(`${EXP}/domain.json`, { tags })
    writeJson(`${EXP}/task_configs.json`, {
      schema_version: 5,
      tasks: [{ index: 1, goal: 'leak', config: {}, references: ['LLM07', 'MEASURE 2.7'] }],
    })
    const report = await buildReport(new NodeFsStorage(root), [EXP], OPTIONS)
    const ids = report.compliance.frameworks.flatMap((f) => f.references.map((r) => [r.id, r.breached.length, r.held.map((o) => o.runs)]))
    // The task held (2 runs) under scope [user] read-only [system]: LLM01 through the granted tag, LLM07 and MEASURE 2.7 from the task.
    expect(ids).toEqual([
      ['LLM01', 0, [2]],
      ['LLM07', 0, [2]],
      ['MEASURE 2.7', 0, [2]],
    ])
    expect(report.compliance.notExercised).toEqual(['AML.T0051.001'])
    const html = reportHtml(report)
    expect(html).toContain('<h2 id="compliance">By framework</h2>')
    expect(html).toContain('not broken in 2 runs under scope [user] read-only [system]')
  })

  it('lists the threat model with its grant in words, the task outcome, the best run and its key steps, with internal links', async () => {
    const report = await buildReport(new NodeFsStorage(root), [EXP], { ...OPTIONS, forest: FOREST })
    expect(report.models).toHaveLength(1)
    const m = report.models[0]
    expect(m.grants.length).toBeGreaterThan(10)
    expect(m.configuration).toContainEqual(['attacker', 'scripted'])
    expect(report.tasks).toHaveLength(1)
    const t = report.tasks[0]
    expect(t.modelAnchor).toBe(m.anchor)
    expect(m.taskAnchors).toEqual([t.anchor])
    expect(t.bestRun).not.toBeNull()
    const marks = t.bestRun!.keySteps.map((s) => s.mark)
    expect(marks).toContain('injection')
    expect(marks[marks.length - 1]).toBe('run-end')
    // Counted as the viewer and the finding export count them: from 1 (reports counted from 0).
    for (const s of t.bestRun!.keySteps) expect(s.step).toBe(s.index + 1)
    // The forest is painted: each tag of the attached forest, with how the grant reaches it.
    expect(report.forest!.map((p) => p.name)).toEqual(FOREST.tags.map((x: Json) => x.name))

    const html = reportHtml(report)
    const doc = new DOMParser().parseFromString(html, 'text/html')
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toBe(EXPORT_CSP)
    // Every internal link lands on an element of the page.
    const links = [...doc.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!)
    expect(links.length).toBeGreaterThan(4)
    for (const href of links) {
      expect(href.startsWith('#')).toBe(true)
      expect(doc.getElementById(href.slice(1)), href).not.toBeNull()
    }
    expect(doc.querySelector('svg.forest-svg g.tag')).not.toBeNull()
    expect(html).toContain('@media print')
    const first = t.bestRun!.keySteps[0]
    expect(doc.getElementById(`${t.anchor}-step-${first.index}`)!.querySelector('strong')!.textContent).toBe(`Step ${first.index + 1}`)
  })

  it('renders hostile text as inert text, and masks a secret with the finding export’s rules', async () => {
    makeHostile()
    const report = await buildReport(new NodeFsStorage(root), [EXP], OPTIONS)
    const html = reportHtml(report)
    const doc = new DOMParser().parseFromString(html, 'text/html')
    // Only the report's own elements: no script, frame, object, form, base, link, image or media of any payload's.
    expect(
      doc.querySelectorAll(
        'script, iframe, object, embed, form, base, link, img, video, audio, input, math, template, marquee, meta[http-equiv="refresh"]',
      ),
    ).toHaveLength(0)
    expect(doc.querySelectorAll('style')).toHaveLength(1)
    expect(doc.querySelectorAll('svg')).toHaveLength(1)
    for (const el of doc.querySelectorAll('*')) {
      for (const a of el.attributes) {
        expect(a.name.startsWith('on'), `${el.tagName} ${a.name}`).toBe(false)
        if (a.name === 'href') expect(a.value.startsWith('#')).toBe(true)
      }
    }
    // The text is there, as text.
    expect(doc.body.textContent).toContain(HOSTILE_STRINGS[0])
    expect(doc.querySelector('h3')!.textContent).not.toBeNull()
    expect(html).not.toContain(SECRET)
    expect(html).toContain('[redacted:')
  })

  it('a sweep report covers every experiment given, and the best run is a success before a higher failing score', async () => {
    cpSync(join(root, EXP), join(root, `${EXP}-b`), { recursive: true })
    const report = await buildReport(new NodeFsStorage(root), [EXP, `${EXP}-b`], { ...OPTIONS, kind: 'sweep', forest: FOREST })
    expect(report.models.map((m) => m.anchor)).toEqual(['tm-1', 'tm-2'])
    expect(report.tasks.map((t) => t.modelAnchor)).toEqual(['tm-1', 'tm-2'])
    expect(report.totals.nTasks).toBe(2)
    const run = (n: number, score: number, success: boolean) =>
      ({ run_number: n, primary_score: score, success }) as Parameters<typeof bestRunOf>[0][number]
    expect(bestRunOf([run(1, 0.9, false), run(2, 0.5, true), run(3, 0.5, true)])!.run_number).toBe(2)
    expect(bestRunOf([run(1, 0.2, false), run(2, 0.7, false)])!.run_number).toBe(2)
    expect(bestRunOf([])).toBeNull()
  })

  it('says every ASR with its n and 95% interval, a threat model that held as not broken in N tasks by its attacker, never "safe"', async () => {
    // A second threat model (scope web) that broke the claim, beside the fixture's (scope user, read only system) that held.
    const b = `${EXP}-b`
    cpSync(join(root, EXP), join(root, b), { recursive: true })
    const man = readJson(`${b}/manifest.json`) as { experiment: Json; summary: Json; tasks: Json[] }
    writeJson(`${b}/manifest.json`, {
      ...man,
      experiment: { ...man.experiment, scope: ['web'], read_only: [] },
      summary: { ...man.summary, asr: 1, n_success: 1, n_failed: 0 },
      tasks: man.tasks.map((t) => ({ ...t, status: 'success', success: true })),
    })
    const report = await buildReport(new NodeFsStorage(root), [EXP, b], { ...OPTIONS, kind: 'sweep', forest: FOREST })
    const doc = new DOMParser().parseFromString(reportHtml(report), 'text/html')
    const text = doc.body.textContent!
    expect(text).toContain('not broken in 1 task by scripted (≤ 80% at 95%)')
    expect(text).toContain('ASR 100% (1 of 1 task, 95% CI 20–100%)')
    expect(text).toContain('50% (1 of 2 tasks, 95% CI 9–91%) · 2 tasks in all, 2 threat models pooled')
    // A task that held: in how many runs, by whom, and the bound of its per-run rate.
    expect(text).toContain('not broken in 2 runs by scripted (≤ 66% at 95%)')
    expect(text).not.toMatch(/\bsafe\b|\bsecure\b/i)
    // The forest: with against without, each with n and interval; one model each side decides nothing.
    const web = [...doc.querySelectorAll('svg.forest-svg g.tag')].find((g) => g.querySelector('text.name')!.textContent === 'web')!
    expect([...web.querySelectorAll('text.rate')].map((t) => t.textContent)).toEqual([
      'with: 1/1 (20–100%)',
      'without: 0/1 (≤ 80%)',
      'no measured difference',
    ])
    expect(doc.querySelector('.legend')!.textContent).toContain('raises the ASR')
  })

  it('paints the frontier’s view when a frontier is known', async () => {
    const report = await buildReport(new NodeFsStorage(root), [EXP], {
      ...OPTIONS,
      forest: FOREST,
      frontier: { minimalWins: [{ scope: ['inbox'], readOnly: ['system'] }], source: 'frontier.json of a folder' },
    })
    const doc = new DOMParser().parseFromString(reportHtml(report), 'text/html')
    const lines = (name: string) =>
      [
        ...[...doc.querySelectorAll('svg.forest-svg g.tag')]
          .find((g) => g.querySelector('text.name')!.textContent === name)!
          .querySelectorAll('text.rate'),
      ].map((t) => t.textContent)
    expect(lines('inbox')).toEqual(['written by 1 of 1 minimal winner'])
    expect(lines('model')).toEqual(['read only by 1 of 1 minimal winner'])
    expect(lines('user')).toEqual(['not needed by any minimal winner'])
    expect(doc.body.textContent).toContain('frontier.json of a folder. Per tag: how the minimal winning threat models hold it')
    // Without the answer's words, no frontier section: only the painting.
    expect(doc.getElementById('frontier')).toBeNull()
  })

  it('lists the frontier’s minimal wins and maximal losses when its answer is known, as escaped text', async () => {
    const answer = {
      progress: 'Evaluated 3 of 15 threat models; 12 decided by inference.',
      none: '',
      complete: true,
      minimalWins: [
        {
          index: '2',
          scope: ['inbox'],
          readOnly: [],
          words: 'an attacker who writes inbox',
          verdict: 'wins' as const,
          runs: '100% (1 of 1 run, 95% CI 20–100%)',
          dirs: [EXP],
        },
      ],
      maximalLosses: [
        {
          index: '9',
          scope: ['user'],
          readOnly: [],
          words: `an attacker who writes ${HOSTILE_STRINGS[0]}`,
          verdict: 'loses' as const,
          runs: 'not broken in 1 run by scripted (≤ 80% at 95%)',
          dirs: ['a', 'b'],
        },
      ],
    }
    const report = await buildReport(new NodeFsStorage(root), [EXP], {
      ...OPTIONS,
      forest: FOREST,
      frontier: { minimalWins: [{ scope: ['inbox'], readOnly: [] }], source: 'frontier.json of a folder', answer },
    })
    const doc = new DOMParser().parseFromString(reportHtml(report), 'text/html')
    expect(doc.getElementById('frontier')!.textContent).toBe('The frontier')
    expect(doc.querySelector('.toc a[href="#frontier"]')).not.toBeNull()
    const card = doc.getElementById('frontier-answer')!
    expect(card.querySelector('p.meta')!.textContent).toBe(
      'frontier.json of a folder. Evaluated 3 of 15 threat models; 12 decided by inference.',
    )
    const items = [...card.querySelectorAll('li')].map((li) => li.textContent)
    expect(items).toEqual([
      `#2 an attacker who writes inbox wins: 100% (1 of 1 run, 95% CI 20–100%) (${EXP})`,
      `#9 an attacker who writes ${HOSTILE_STRINGS[0]} loses: not broken in 1 run by scripted (≤ 80% at 95%) (a and 1 more)`,
    ])
    expect([...card.querySelectorAll('h3')].map((h) => h.textContent)).toEqual([
      'The weakest attackers that win (1)',
      'The widest attackers that did not win, in the runs made (1)',
    ])
  })
})
