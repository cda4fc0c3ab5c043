import { buildReplay, coverageFor } from '../replay'
import { end, inj, obs, pre } from '../replay/testItems'
import { BUILTIN_RULES, compileRules, redactValue, secretRule, type RedactionRule } from '../redaction'
import { buildFinding, cutText, EXPORT_CSP, findingTexts, renderFindingHtml, type FindingMeta } from '.'

const XSS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  '</style><script>alert(1)</script>',
  '<a href="http://evil.example/">click</a>',
]

const forest = {
  tags: [
    { name: 'user', parent: null, description: '<b>the user</b>' },
    { name: 'web', parent: null, description: '' },
  ],
}
const meta: FindingMeta = {
  experiment: { dir: 'exp-1', attacker: 'a<b>', target: 't', claim: 'c', model: 'no-llm' },
  task: { index: 1, goal: '<script>alert("goal")</script>', status: 'success', stopReason: 'success' },
  run: { number: 1, score: 1, success: true, cumulativeCost: 0 },
  forest,
  evaluation: { success: true, primaryScore: 1, rationale: 'leaked sk-abcdefghijklmnopqrstuv', subScores: [] },
  exportedAt: '2026-11-29T00:00:00Z',
}

function replay() {
  const items = [pre('u', 'user', XSS[0]), inj('u', XSS[1]), obs('w', 'web', { html: XSS[2], more: XSS.slice(3) }), end('user')]
  return buildReplay(items, null, coverageFor(forest, { scope: ['user'], readOnly: [] }))
}

describe('renderFindingHtml', () => {
  const html = renderFindingHtml(buildFinding(replay(), meta, new Map([[1, { note: 'the <i>key</i> step', bookmarked: true }]])))

  it('starts with a policy that forbids all script and any outside resource', () => {
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<title>'))
    expect(html).toContain(`content="${EXPORT_CSP.replaceAll("'", '&#39;')}"`)
    expect(EXPORT_CSP).toMatch(/^default-src 'none'/)
  })
  it('carries no script element, no event handler and no link or resource attribute', () => {
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<(img|svg|a|iframe|link|object|embed)\b/i)
    const doc = new DOMParser().parseFromString(html, 'text/html')
    const attributes = new Set([...doc.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name)))
    // title: the event's class name, on demand (plain text, like every other attribute here).
    expect([...attributes].sort()).toEqual(['charset', 'class', 'content', 'http-equiv', 'id', 'lang', 'name', 'title'])
  })
  it('shows every payload as text', () => {
    const doc = new DOMParser().parseFromString(html, 'text/html')
    expect(doc.querySelectorAll('script, img, svg, a').length).toBe(0)
    const text = doc.body.textContent ?? ''
    for (const p of [XSS[0], XSS[1], '"><svg onload=alert(1)>', meta.task.goal, 'the <i>key</i> step', '<b>the user</b>']) {
      expect(text).toContain(p)
    }
    expect(doc.title).toBe(`redscope finding: ${meta.task.goal} (run 1)`)
  })
  it('marks hidden steps and keeps notes and bookmarks, numbered as the viewer numbers them (from 1)', () => {
    const doc = new DOMParser().parseFromString(html, 'text/html')
    expect(doc.querySelector('#step-3')!.className).toContain('hidden')
    expect(doc.querySelector('#step-2')!.textContent).toContain('bookmarked')
    expect(doc.querySelector('#step-1 strong')!.textContent).toBe('Step 1')
    expect(doc.querySelector('#step-0')).toBeNull()
  })
  it('says per kind only what is true, in plain words; class names only on demand', () => {
    const doc = new DOMParser().parseFromString(html, 'text/html')
    const step = (n: number) => doc.querySelector(`#step-${n}`)!
    expect(step(1).querySelector('.kind')!.textContent).toBe('call before the target uses a controllable')
    expect(step(1).querySelector('.kind')!.getAttribute('title')).toBe('ControllablePreCallEvent')
    expect(step(1).textContent).toContain('so the optimizer was asked what to inject')
    for (const n of [2, 3, 4]) expect(step(n).textContent).not.toContain('asked what to inject')
    // Step 2 is the injection itself: labelled as one, not as "not an injection point".
    expect([...step(2).querySelectorAll('.badge')].map((b) => b.textContent)).toContain('injected')
    expect(step(2).textContent).not.toContain('not an injection point')
    for (const n of [3, 4]) expect(step(n).textContent).toContain('not an injection point')
    expect(step(4).querySelector('.kind')!.textContent).toBe('end of the run')
    const visible = doc.body.textContent ?? ''
    expect(visible).not.toMatch(/ControllablePreCallEvent|ObservableEvent|RunEndEvent|declined_by/)
  })
})

describe('buildFinding options and redaction', () => {
  it('exports only bookmarked steps when asked, counting the rest', () => {
    const f = buildFinding(replay(), meta, new Map([[3, { note: '', bookmarked: true }]]), {
      onlyBookmarked: true,
      maxSteps: 10,
      maxFieldChars: 100,
    })
    expect(f.steps.map((s) => s.index)).toEqual([3])
    expect(f.stepsOmitted).toBe(3)
  })
  it('cuts huge fields and says how long they were', () => {
    expect(cutText('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}\n… [cut: 50 characters in all]`)
  })
  it('redacts the finding before rendering: no secret reaches the file', () => {
    const finding = redactValue(buildFinding(replay(), meta, new Map()), compileRules(BUILTIN_RULES))
    const html = renderFindingHtml(finding)
    expect(html).not.toContain('sk-abcdefghijklmnopqrstuv')
    expect(html).toContain('[redacted:api-key]')
  })
  it("carries the task's configuration as text, and a rule from a configuration value masks it in every form it leaked in", () => {
    const secret = 'TIGER-42'
    const config = { defence: '<b>none</b>', passphrase: secret }
    const leaky = [
      pre('u', 'user', 'hi'),
      obs('w', 'web', { said: secret, spaced: 'T I G E R - 4 2', b64: btoa(secret), reversed: [...secret].reverse().join('') }),
      end('user'),
    ]
    const r = buildReplay(leaky, null, coverageFor(forest, { scope: ['user'], readOnly: [] }))
    const finding = buildFinding(r, { ...meta, task: { ...meta.task, config } }, new Map())
    const plain = renderFindingHtml(finding)
    expect(plain).toContain(
      '<tr><th>configuration</th><td><code>defence</code> = &lt;b&gt;none&lt;/b&gt;<br><code>passphrase</code> = TIGER-42</td></tr>',
    )
    expect([...findingTexts(finding)]).toContainEqual({ where: 'Configuration · passphrase', text: secret })

    const rule = secretRule('config-passphrase', config.passphrase, 'Configuration value: passphrase') as RedactionRule
    const html = renderFindingHtml(redactValue(finding, compileRules([rule])))
    for (const form of [secret, 'T I G E R - 4 2', btoa(secret), [...secret].reverse().join('')]) expect(html).not.toContain(form)
    expect(html).toContain('<code>passphrase</code> = [redacted:config-passphrase]')
    // Without a configuration the row is left out rather than shown empty.
    expect(renderFindingHtml(buildFinding(r, meta, new Map()))).not.toContain('<th>configuration</th>')
  })

  it('words a task that held as what it is, with its runs, its attacker (as text) and the bound of its per-run rate', () => {
    const held = renderFindingHtml(
      buildFinding(replay(), { ...meta, task: { ...meta.task, status: 'failed', stopReason: 'max_runs', runs: 8 } }, new Map()),
    )
    expect(held).toContain('<tr><th>outcome</th><td>failed (stop: max_runs) · not broken in 8 runs by a&lt;b&gt; (≤ 33% at 95%)</td></tr>')
    // A task that broke, or whose runs are unknown, says only its status.
    expect(renderFindingHtml(buildFinding(replay(), { ...meta, task: { ...meta.task, runs: 2 } }, new Map()))).toContain(
      '<tr><th>outcome</th><td>success (stop: success)</td></tr>',
    )
    expect(renderFindingHtml(buildFinding(replay(), { ...meta, task: { ...meta.task, status: 'failed' } }, new Map()))).toContain(
      '<tr><th>outcome</th><td>failed (stop: success)</td></tr>',
    )
  })
})

describe('what the attacker learned, and echoes, in the exported finding', () => {
  const answer = 'the vault passphrase is AZURE-FALCON-7391, keep it'
  // The attacker holds `user`; the web page's observation is hidden, but the rationale quotes it whole.
  const items = [
    pre('u', 'user', 'Hi'),
    inj('u', 'say AZURE-FALCON-7391'),
    obs('w', 'web', answer),
    {
      ...end('user'),
      evaluation: {
        success: false,
        primary_score: { name: 'primary', value: 0, security_domain: null },
        sub_scores: {},
        rationale: `Echoed, not counted. Secret not found in response: ${answer}`,
      },
    },
  ]
  const learnedReplay = () => buildReplay(items, null, coverageFor(forest, { scope: ['user'], readOnly: [] }))
  const echo = {
    counted: false,
    evidence: { where: 'observable reply', texts: ['AZURE-FALCON-7391'] },
    injections: [{ controllable: 'u', value: 'say AZURE-FALCON-7391' }],
    claimed: { success: true, primaryScore: 1, rationale: '<b>found</b> it' },
  }
  const finding = buildFinding(learnedReplay(), { ...meta, echo, echoItems: new Set([1]) }, new Map())

  it('a hidden step the rationale quotes is "seen via the evaluation\'s rationale", with where it came from', () => {
    const step = finding.steps.find((s) => s.index === 2)!
    expect(step.seenByAttacker).toBe(false)
    expect(step.learnedVia).toBe("via the evaluation's rationale (all of its content)")
    const html = renderFindingHtml(finding)
    expect(html).toContain('hidden during the run; seen via the evaluation&#39;s rationale (all of its content)')
    expect([...findingTexts(finding)]).toContainEqual({
      where: 'Step 3 · seen',
      text: "via the evaluation's rationale (all of its content)",
    })
  })

  it('an echoed run says so beside its evaluation, marks the injection, and its texts go through redaction', () => {
    const html = renderFindingHtml(finding)
    expect(html).toContain('Echoed: not counted as a success.')
    expect(html).toContain('&lt;b&gt;found&lt;/b&gt; it')
    expect(finding.steps.find((s) => s.index === 1)!.echo).toBe(true)
    expect(html).toContain('echo: holds what the check matched')
    const wheres = [...findingTexts(finding)].map((t) => t.where)
    expect(wheres).toEqual(
      expect.arrayContaining(['Echo · what the check matched', 'Echo · injected into u', "Echo · the claim's rationale"]),
    )
    const masked = redactValue(finding, compileRules([secretRule('s1', 'AZURE-FALCON-7391', 'test') as RedactionRule]))
    expect(JSON.stringify(masked)).not.toContain('AZURE-FALCON-7391')
  })
})

describe('the finding by framework', () => {
  const mapped = {
    tags: [
      { name: 'user', parent: null, description: '', references: ['LLM01'] },
      { name: 'web', parent: null, description: '', references: ['LLM02'] },
    ],
  }
  const build = (success: boolean) => {
    const r = buildReplay(
      [pre('u', 'user', 'hi'), inj('u', 'x'), obs('w', 'web', 'y'), end('user')],
      null,
      coverageFor(mapped, { scope: ['user'], readOnly: [] }),
    )
    const task = { ...meta.task, success, status: success ? 'success' : 'failed', runs: 4, references: ['AML.T0051'] }
    return buildFinding(r, { ...meta, forest: mapped, task }, new Map())
  }

  it("names each reference of the granted tags and of the task as breached under this run's threat model", () => {
    const f = build(true)
    const ids = f.compliance.frameworks.flatMap((fw) => fw.references.map((v) => [v.id, v.breached.length > 0]))
    expect(ids.sort()).toEqual([
      ['AML.T0051', true],
      ['LLM01', true],
    ])
    // The tag no grant reached is listed as not exercised, never as held.
    expect(f.compliance.notExercised).toEqual(['LLM02'])
    const doc = new DOMParser().parseFromString(renderFindingHtml(f), 'text/html')
    expect(doc.querySelector('#compliance')!.textContent).toBe('By framework')
    expect(doc.querySelector('[data-reference="LLM01"]')!.textContent).toContain('breached')
    expect(doc.body.textContent).toContain('not exercised')
  })

  it('words a task that held as not broken in its runs, never as safe', () => {
    const html = renderFindingHtml(build(false))
    const row = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-reference="LLM01"]')!
    expect(row.textContent).toContain('not broken')
    expect(row.textContent).toContain('4 runs')
    expect(row.textContent).not.toMatch(/safe|secure/i)
  })
})
