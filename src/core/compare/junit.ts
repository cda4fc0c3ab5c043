/**
 * JUnit XML of a results side: one testsuite per threat model, one testcase
 * per task, failing where the task was breached and skipped where nothing
 * was measured. The dialect GitHub's, GitLab's and Jenkins' readers share:
 * testsuites > testsuite > testcase with failure / skipped.
 */
import { rateWords } from '../stats'
import type { TaskChangeKind } from './compare'
import { modelLabel } from './gate'
import type { Side } from './side'

// XML 1.0 cannot carry most control characters even escaped: they are dropped.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g
export function xmlEscape(text: string): string {
  return text
    .replace(INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const CHANGE_WORDS: Partial<Record<TaskChangeKind, string>> = {
  regression: 'a regression: it held in BASE',
  fix: 'fixed: it was breached in BASE',
  only_head: 'new in HEAD',
}

/** `changes` (from a comparison, by model key and task key) adds what changed to each testcase's message. */
export function junitXml(head: Side, changes: ReadonlyMap<string, TaskChangeKind> = new Map()): string {
  const suites: string[] = []
  let tests = 0
  let failures = 0
  let skipped = 0
  for (const m of head.models) {
    const label = modelLabel(m)
    const cases: string[] = []
    let f = 0
    let s = 0
    for (const t of m.tasks) {
      const change = CHANGE_WORDS[changes.get(`${m.key}\n${t.key}`) ?? 'unchanged']
      const attrs = `classname="${xmlEscape(`${m.claim}.${label}`)}" name="${xmlEscape(t.key)}"`
      if (t.outcome === 'breached') {
        f++
        const message = `breached by ${m.attacker} in ${t.runs} run(s)${change ? ` (${change})` : ''}`
        cases.push(
          `    <testcase ${attrs}>\n      <failure message="${xmlEscape(message)}" type="breach">${xmlEscape(`${message}\nthreat model: ${label}\ntarget: ${m.target}\nexperiment: ${m.dir}`)}</failure>\n    </testcase>`,
        )
      } else if (t.outcome === 'unmeasured') {
        s++
        cases.push(`    <testcase ${attrs}>\n      <skipped message="${xmlEscape(`not measured (status ${t.status})`)}"/>\n    </testcase>`)
      } else {
        const words = rateWords(0, t.runs, { unit: 'run', attacker: m.attacker }).text
        cases.push(
          `    <testcase ${attrs}>\n      <system-out>${xmlEscape(words + (change ? ` (${change})` : ''))}</system-out>\n    </testcase>`,
        )
      }
    }
    tests += m.tasks.length
    failures += f
    skipped += s
    suites.push(
      `  <testsuite name="${xmlEscape(label)}" tests="${m.tasks.length}" failures="${f}" errors="0" skipped="${s}">\n${cases.join('\n')}\n  </testsuite>`,
    )
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="redscope" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">\n` +
    `${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`
  )
}
