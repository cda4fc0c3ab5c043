import { complianceHtml } from '../compliance/renderHtml'
import type { Forest } from '../tags'
import type { Finding, FindingStep } from './finding'
import { taskHeld } from '../results/summary'
import { rateWords } from '../stats'
import type { ViewSource } from '../replay/replay'

const VIEW_SOURCE_WORDS: Readonly<Record<ViewSource, string>> = {
  'attacker-file': 'recorded (attacker file)',
  derived: "derived with the engine's filter from the run and its forest",
  recomputed: 'recomputed from the grant',
}

/**
 * The finding as one self-contained HTML page: no script, no external
 * resource, every piece of data escaped as text, and a policy that forbids
 * script even if something slipped through. It opens from file://.
 */
export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

/** The head every exported page opens with: its CSP (no script, no fetch), no referrer, its title and style. */
export function exportHead(title: string, style: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(EXPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${style}</style></head>`
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}

const e = escapeHtml

const MARK_CLASS: Record<string, string> = {
  injection: 'm-inj',
  'declined-scope': 'm-dsc',
  'declined-optimizer': 'm-dop',
  'read-only': 'm-ro',
  'run-end': 'm-end',
  observation: 'm-obs',
  call: 'm-call',
  response: 'm-resp',
}

/** The legend's words for each mark, as the viewer says them. */
const MARK_WORDS: Record<string, string> = {
  injection: 'the attacker wrote here',
  'declined-scope': 'declined by the framework (outside the scope)',
  'declined-optimizer': 'declined by the optimizer',
  'read-only': 'read-only surface',
  'run-end': 'run end',
  observation: 'observation',
  call: 'call at a controllable',
  response: 'response',
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Liberation Sans',sans-serif;color:#1d2330;background:#f6f7f9;margin:0}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#5c6370;font-size:13px}.card{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 16px;margin:8px 0}
.notice{background:#fff4e6;border-color:#ffa94d}
.ok{color:#2b8a3e;font-weight:600}.bad{color:#c92a2a;font-weight:600}table.grid td,table.grid th{padding:4px 8px;border-bottom:1px solid #eef0f3;text-align:left;vertical-align:top}
table{border-collapse:collapse}td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
code,pre{font-family:ui-monospace,'Liberation Mono',monospace;font-size:13px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f1f3f5;border-radius:6px;padding:6px 8px;margin:4px 0;max-height:480px;overflow:auto}
ul.forest{list-style:none;padding-left:18px;margin:0}ul.forest ul{list-style:none;padding-left:18px}
.tag{font-family:ui-monospace,'Liberation Mono',monospace}.g-w{color:#c92a2a;font-weight:700}.g-r{color:#1c7ed6;font-weight:700}
.step{border-left:4px solid #adb5bd}.step.hidden{opacity:.75;border-left-style:dashed}
.m-inj{border-left-color:#d6336c}.m-dsc{border-left-color:#868e96}.m-dop{border-left-color:#f08c00}.m-ro{border-left-color:#1c7ed6}.m-end{border-left-color:#2b8a3e}
.badge{display:inline-block;font-size:12px;border-radius:10px;padding:0 8px;margin-right:6px;background:#e9ecef}
.note{background:#fff9db;border-radius:6px;padding:4px 8px;margin:6px 0;white-space:pre-wrap}
.why{color:#495057;font-size:13px;margin:4px 0 0 0;padding-left:18px}
.badge.learned{background:#fff3bf;color:#8a5300}.badge.echo{background:#e67700;color:#fff}.echo{background:#fff9db;border-color:#ffe066}
`

function forestHtml(forest: Forest, scope: ReadonlySet<string>, readOnly: ReadonlySet<string>): string {
  const children = new Map<string | null, Forest['tags']>()
  for (const t of forest.tags) {
    const list = children.get(t.parent) ?? []
    list.push(t)
    children.set(t.parent, list)
  }
  const seen = new Set<string>()
  const walk = (parent: string | null): string => {
    const list = (children.get(parent) ?? []).filter((t) => !seen.has(t.name))
    if (list.length === 0) return ''
    return `<ul class="forest">${list
      .map((t) => {
        seen.add(t.name)
        const cls = scope.has(t.name) ? 'g-w' : readOnly.has(t.name) ? 'g-r' : ''
        const grant = scope.has(t.name) ? ' (scope: read &amp; write)' : readOnly.has(t.name) ? ' (read only)' : ''
        const desc = t.description ? ` <span class="meta">${e(t.description)}</span>` : ''
        return `<li><span class="tag ${cls}">${e(t.name)}</span>${grant}${desc}${walk(t.name)}</li>`
      })
      .join('')}</ul>`
  }
  return walk(null)
}

function stepHtml(s: FindingStep): string {
  const fields = s.fields.map((f) => `<div><span class="meta">${e(f.label)}</span><pre>${e(f.text)}</pre></div>`).join('')
  const note = s.note ? `<div class="note"><strong>Note:</strong> ${e(s.note)}</div>` : ''
  // Plain words for the kind; the event's class name only on demand (hover), for engineers.
  const anchor = s.step === null ? '' : ` id="step-${s.step}"`
  return `<section class="card step ${MARK_CLASS[s.mark] ?? ''}${s.seenByAttacker ? '' : ' hidden'}"${anchor}>
<div><strong>Step ${s.step === null ? '(attacker only)' : s.step}</strong> <span class="kind" title="${e(s.type)}">${e(s.kindWords)}</span> <span class="badge">domain: ${e(s.domain ?? 'unknown')}</span><span class="badge">${e(MARK_WORDS[s.mark] ?? s.mark)}</span>${
    s.seenByAttacker
      ? '<span class="badge">seen by the attacker</span>'
      : s.learnedVia
        ? `<span class="badge learned">hidden during the run; seen ${e(s.learnedVia)}</span>`
        : '<span class="badge">hidden from the attacker</span>'
  }${s.echo ? '<span class="badge echo">echo: holds what the check matched</span>' : ''}<span class="badge">${e(s.writeVerdict.toLowerCase())}</span>${s.bookmarked ? '<span class="badge">bookmarked</span>' : ''}</div>
${note}${fields}<ul class="why">${s.why.map((w) => `<li>${e(w)}</li>`).join('')}</ul></section>`
}

/** A task's configuration as key = value lines (the finding and the report); no row where the tree records none. */
export function configRow(entries: ReadonlyArray<readonly [string, string]>): string {
  if (entries.length === 0) return ''
  return `<tr><th>configuration</th><td>${entries.map(([k, v]) => `<code>${e(k)}</code> = ${e(v)}`).join('<br>')}</td></tr>\n`
}

/** A task that held, in the words every view uses: how many runs, by whom, and the bound of its per-run success rate. */
function heldWords(f: Finding): string {
  const runs = f.task.runs
  if (runs === undefined || !taskHeld(f.task.status, runs)) return ''
  return rateWords(0, runs, { unit: 'run', attacker: f.experiment.attacker || null }).text
}

/** An echoed run, said beside its evaluation: what matched, the injection that held it, the claim's own verdict. */
export function echoHtml(echo: NonNullable<Finding['echo']>): string {
  return (
    `<div class="card echo"><p><strong>Echoed: ${echo.counted ? 'counted as a success' : 'not counted as a success'}.</strong> ` +
    `What the check matched (${echo.evidence.texts.map((t) => `“${e(t)}”`).join(', ')}, ${e(echo.evidence.where)}) is in the attacker's own injection of this run:</p>` +
    `${echo.injections.map((i) => `<div><span class="meta">injected into ${e(i.controllable)}</span><pre>${e(i.value)}</pre></div>`).join('')}` +
    `<p class="meta">The claim's own verdict: ${echo.claimed.success ? 'success' : 'no success'}, score ${e(String(echo.claimed.primaryScore))}</p>` +
    `<pre>${e(echo.claimed.rationale)}</pre></div>`
  )
}

export function renderFindingHtml(f: Finding): string {
  const scope = new Set(f.scope)
  const readOnly = new Set(f.readOnly)
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `<code>${e(x)}</code>`).join(', ') : '<em>nothing</em>')
  const ev = f.evaluation
  const evaluation =
    ev === null
      ? '<p class="meta">No evaluation recorded.</p>'
      : `<table>
<tr><th>success</th><td>${ev.success ? 'yes' : 'no'}</td></tr>
<tr><th>primary score</th><td>${e(String(ev.primaryScore))}</td></tr>
${ev.subScores.map((s) => `<tr><th>${e(s.name)}</th><td>${e(String(s.value))} <span class="meta">domain ${e(s.domain ?? 'none')}</span></td></tr>`).join('')}
</table><pre>${e(ev.rationale)}</pre>`
  return `${exportHead(`redscope finding: ${f.title}`, STYLE)}
<body><main>
<h1>${e(f.task.goal)}</h1>
<p class="meta">Run ${f.run.number} of task ${f.task.index} · experiment <code>${e(f.experiment.dir)}</code> · attacker ${e(f.experiment.attacker)} · target ${e(f.experiment.target)} · claim ${e(f.experiment.claim)} · model ${e(f.experiment.model)} · exported ${e(f.exportedAt)}</p>
${f.notice ? `<div class="card notice">${e(f.notice)}</div>` : ''}
<div class="card"><table>
<tr><th>outcome</th><td>${e(f.task.status)} (stop: ${e(f.task.stopReason)})${heldWords(f) ? ` · ${e(heldWords(f))}` : ''}</td></tr>
${configRow(Object.entries(f.task.config ?? {}))}<tr><th>run score</th><td>${e(f.run.score === null ? 'unknown' : String(f.run.score))}${f.run.success === null ? '' : f.run.success ? ' · success' : ' · no success'}</td></tr>
<tr><th>cumulative cost</th><td>${e(f.run.costText ?? (f.run.cumulativeCost === null ? 'unknown' : `$${f.run.cumulativeCost.toFixed(4)}`))}</td></tr>
${f.run.ended ? `<tr><th>run ended</th><td>${e(f.run.ended)}</td></tr>\n` : ''}
<tr><th>scope (read &amp; write)</th><td>${list(f.scope)}</td></tr>
<tr><th>read only</th><td>${list(f.readOnly)}</td></tr>
<tr><th>attacker view</th><td>${VIEW_SOURCE_WORDS[f.viewSource]} · coverage ${f.coverageMode === 'forest' ? 'through the forest' : 'by tag names only'}</td></tr>
</table></div>
<h2>Forest</h2>
<div class="card">${f.forest ? forestHtml(f.forest, scope, readOnly) : '<p class="meta">No forest known for this run.</p>'}</div>
<h2>Evaluation</h2>
<div class="card">${evaluation}</div>
<h2 id="compliance">By framework</h2>
${complianceHtml(f.compliance, e)}
${f.echo ? echoHtml(f.echo) : ''}
<h2>Steps (${f.steps.length} of ${f.totalSteps}${f.stepsOmitted ? `, ${f.stepsOmitted} left out` : ''})</h2>
${f.steps.map(stepHtml).join('\n')}
</main></body></html>
`
}
