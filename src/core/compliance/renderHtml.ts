/**
 * The summary by framework as an HTML fragment, for the report, the finding export and the static bundle's
 * page: every piece of text escaped by the caller's escaper, no script, no style of its own beyond the classes
 * the pages share (`card`, `grid`, `meta`, `ok`, `bad`).
 */
import type { ComplianceSummary } from './summary'
import { referenceVerdictWords } from './summary'

export const COMPLIANCE_ABOUT =
  'A reference counts for a task when the task or its claim carries it, or when the threat model grants a tag that carries it ' +
  '(granting a tag covers its subtree). "Not broken" says what these runs measured, for this attacker: not that the system is safe.'

export function complianceHtml(summary: ComplianceSummary, escape: (s: string) => string): string {
  if (summary.frameworks.length === 0 && summary.notExercised.length === 0) {
    return '<div class="card compliance"><p class="meta">No framework references: neither the forest\'s tags nor the claim\'s tasks carry any.</p></div>'
  }
  const sections = summary.frameworks
    .map((f) => {
      const head =
        f.framework === null
          ? "<h3>References not in this version's list</h3>"
          : `<h3>${escape(f.framework.title)}</h3><p class="meta">List from ${escape(f.framework.source)}, taken ${escape(f.framework.taken)}.</p>`
      const rows = f.references
        .map((v) => {
          const words = referenceVerdictWords(v)
          const verdict = v.breached.length > 0 ? '<span class="bad">breached</span>' : '<span class="ok">not broken</span>'
          const lines = [...words.breached, ...words.held].map((l) => `<div>${escape(l)}</div>`).join('')
          return `<tr data-reference="${escape(v.id)}"><td><code>${escape(v.id)}</code></td><td>${escape(v.title)}</td><td>${verdict}</td><td>${lines}</td></tr>`
        })
        .join('\n')
      return `${head}<table class="grid"><tr><th>id</th><th>title</th><th>outcome</th><th>under which threat models</th></tr>\n${rows}</table>`
    })
    .join('\n')
  const idle =
    summary.notExercised.length > 0
      ? `<p class="meta">On the forest but not exercised by these results (no threat model granted their tags): ${summary.notExercised.map(escape).join(', ')}.</p>`
      : ''
  return `<div class="card compliance"><p class="meta">${escape(COMPLIANCE_ABOUT)}</p>\n${sections}\n${idle}</div>`
}
