/**
 * The report as one self-contained HTML page, under the same policy as the
 * finding export (no script, nothing loaded from anywhere, every piece of data
 * escaped as text): it opens from file:// and prints to PDF cleanly.
 */
import { configRow, escapeHtml as e, exportHead } from '../finding/renderHtml'
import { complianceHtml } from '../compliance/renderHtml'
import { forestSvg } from './forestSvg'
import type { Report, ReportFrontier, ReportStep, ReportTask, ReportThreatModel } from './reportModel'
import { taskHeld } from '../results/summary'
import { asrText, rateWords } from '../stats'
import { CONTRAST_LEGEND, FRONTIER_LEGEND } from '../sweep/paint'
import { BUILTIN_RULES, compileRules, redactValue, type RedactionRule } from '../redaction'

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Liberation Sans',sans-serif;color:#1d2330;background:#f6f7f9;margin:0}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:2px solid #dde1e7;padding-bottom:4px}h3{font-size:16px;margin:0 0 6px}
.meta{color:#5c6370;font-size:13px}.card{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 16px;margin:10px 0}
.notice{background:#fff4e6;border-color:#ffa94d}
table{border-collapse:collapse}td,th{padding:2px 12px 2px 0;text-align:left;vertical-align:top}
table.grid{width:100%;font-size:13px}table.grid th{background:#f1f3f5}table.grid td,table.grid th{padding:4px 8px;border-bottom:1px solid #eef0f3}
code,pre{font-family:ui-monospace,'Liberation Mono',monospace;font-size:13px;overflow-wrap:anywhere}
pre{white-space:pre-wrap;background:#f1f3f5;border-radius:6px;padding:6px 8px;margin:4px 0;max-height:360px;overflow:auto}
.toc ol{margin:4px 0;padding-left:20px}
.ok{color:#2b8a3e;font-weight:600}.bad{color:#c92a2a;font-weight:600}
.badge{display:inline-block;font-size:12px;border-radius:10px;padding:0 8px;margin-right:6px;background:#e9ecef}
.step{border-left:4px solid #adb5bd;padding-left:10px;margin:8px 0}.step.m-injection{border-left-color:#d6336c}.step.m-declined-optimizer{border-left-color:#f08c00}.step.m-run-end{border-left-color:#2b8a3e}
.step.hidden{border-left-style:dashed}.classname{color:#868e96;font-size:12px}
.forest-wrap{overflow:auto}.forest-svg{max-width:100%;height:auto;font:12px system-ui,sans-serif}
.forest-svg .edge{fill:none;stroke:#adb5bd;stroke-width:1.5}.forest-svg rect{stroke:#adb5bd;stroke-width:1.5}
.forest-svg .g-write rect{stroke:#e03131;stroke-width:3}.forest-svg .g-read rect{stroke:#1c7ed6;stroke-width:3;stroke-dasharray:6 3}
.forest-svg .name{font-weight:600;font-family:ui-monospace,'Liberation Mono',monospace}.forest-svg .rate{font-size:11px}
.legend span{display:inline-block;margin-right:14px}.swatch{display:inline-block;width:14px;height:14px;border:1px solid #adb5bd;vertical-align:middle;margin-right:4px}
a{color:#364fc7}
@media print{
  body{background:#fff;font-size:11pt}main{max-width:none;padding:0}
  .card{border-color:#ccc;break-inside:avoid}.step{break-inside:avoid}h2{break-after:avoid}h3{break-after:avoid}
  section.model,section.task{break-inside:avoid-page}
  pre{max-height:none;overflow:visible}
  .forest-wrap{overflow:visible}.forest-svg{max-width:100%}
  a{color:inherit;text-decoration:none}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`

/** A threat model's ASR in the words every view uses (n = its completed tasks; a held one names the attacker). */
const asrOf = (m: ReportThreatModel) => rateWords(m.nSuccess, m.nCompleted, { unit: 'task', attacker: m.attacker })
export function duration(s: number | null): string {
  if (s === null) return 'unknown'
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`
}
const names = (xs: readonly string[]) => (xs.length ? xs.map((x) => `<code>${e(x)}</code>`).join(', ') : '<em>none</em>')
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

function modelTitle(m: ReportThreatModel): string {
  if (m.label) return e(m.label)
  return m.scope.length || m.readOnly.length
    ? `${m.scope.length ? `scope ${m.scope.map(e).join(', ')}` : 'no scope'}${m.readOnly.length ? ` · read only ${m.readOnly.map(e).join(', ')}` : ''}`
    : 'empty threat model'
}

function modelHtml(m: ReportThreatModel, tasks: readonly ReportTask[]): string {
  const own = tasks.filter((t) => t.modelAnchor === m.anchor)
  return `<section class="card model" id="${m.anchor}">
<h3>${modelTitle(m)}</h3>
<p>${e(m.grants)}</p>
<table>
<tr><th>scope (read &amp; write)</th><td>${names(m.scope)}</td></tr>
<tr><th>read only</th><td>${names(m.readOnly)}</td></tr>
<tr><th>outcome</th><td>${e(asrText(asrOf(m)))} · ${plural(m.nTasks, 'task')} in all · ${e(m.status === 'complete' ? 'complete' : 'not finished')}</td></tr>
<tr><th>cost and time</th><td>${e(m.costText)} · ${duration(m.seconds)}</td></tr>
${m.echoRuns ? `<tr><th>echoes</th><td>${plural(m.echoRuns, 'run')} in ${plural(m.echoTasks, 'task')} succeeded only on text the attacker injected itself</td></tr>\n` : ''}<tr><th>results folder</th><td><code>${e(m.dir)}</code></td></tr>
</table>
<details open><summary>Configuration</summary><table>${m.configuration.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table></details>
<p>Tasks: ${own.length ? own.map((t) => `<a href="#${t.anchor}">#${t.index} ${e(cutText(t.goal, 60))}</a> <span class="${t.success ? 'bad' : 'ok'}">${e(t.success ? 'broken' : taskVerdict(t, m.attacker).short)}</span>`).join(' · ') : '<em>none recorded</em>'}</p>
</section>`
}

/**
 * A task's outcome in words: broken, or how many runs it held and the most its per-run success rate can be
 * (n = its runs: superred stops a task at its first success, so only a task that held has a per-run rate to bound).
 */
function taskVerdict(t: ReportTask, attacker: string): { text: string; short: string } {
  if (t.success) return { text: `the attack succeeded, after ${plural(t.runs, 'run')}`, short: 'broken' }
  if (!taskHeld(t.status, t.runs)) return { text: `no verdict, after ${plural(t.runs, 'run')}`, short: t.status }
  const w = rateWords(0, t.runs, { unit: 'run', attacker })
  return { text: w.text, short: `not broken in ${plural(t.runs, 'run')}` }
}

function cutText(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s
}

function stepHtml(s: ReportStep, anchor: string): string {
  return `<div class="step m-${s.mark}${s.seenByAttacker ? '' : ' hidden'}" id="${anchor}-step-${s.index}">
<div><strong>Step ${s.step ?? '(attacker only)'}</strong> · ${e(s.what)} <span class="badge">domain: ${e(s.domain ?? 'none')}</span><span class="badge">${s.seenByAttacker ? 'seen by the attacker' : s.learnedVia ? `hidden during the run; seen ${e(s.learnedVia)}` : 'hidden from the attacker'}</span> <span class="classname">${e(s.type)}</span></div>
${s.fields.map((f) => `<div><span class="meta">${e(f.label)}</span><pre>${e(f.text)}</pre></div>`).join('')}
</div>`
}

function taskHtml(t: ReportTask, models: readonly ReportThreatModel[]): string {
  const m = models.find((x) => x.anchor === t.modelAnchor)
  const r = t.bestRun
  const best =
    r === null
      ? '<p class="meta">No runs recorded.</p>'
      : `<h4>Best run: run ${r.number} · score ${e(String(r.score))} · ${r.success ? '<span class="bad">success</span>' : 'no success'} · ${e(r.costText)} so far · ${duration(r.seconds)}${r.ended ? ` · ${e(r.ended)}` : ''}</h4>
${r.missing ? `<p class="meta">Its steps are not shown: ${e(r.missing)}.</p>` : ''}
${r.keySteps.length ? `<p class="meta">Key steps (${plural(r.keySteps.length, 'step')} shown, ${plural(r.otherSteps, 'other')} left out):</p>${r.keySteps.map((s) => stepHtml(s, t.anchor)).join('\n')}` : r.missing ? '' : '<p class="meta">No injection, decline or run end recorded in this run.</p>'}`
  return `<section class="card task" id="${t.anchor}">
<h3>Task ${t.index}: ${e(t.goal)}</h3>
<p class="meta">Threat model: <a href="#${t.modelAnchor}">${m ? modelTitle(m) : e(t.modelAnchor)}</a></p>
<table>
<tr><th>outcome</th><td><span class="${t.success ? 'bad' : 'ok'}">${e(taskVerdict(t, m?.attacker ?? '').text)}</span> · status ${e(t.status)} · stopped: ${e(t.stopReason)}</td></tr>
${configRow(t.config)}<tr><th>best score</th><td>${e(String(t.bestScore))} after ${plural(t.runs, 'run')}</td></tr>
<tr><th>cost and time</th><td>${e(t.costText)} · ${duration(t.seconds)}</td></tr>
${t.runEnds ? `<tr><th>runs ended</th><td>${e(t.runEnds)}</td></tr>\n` : ''}${t.echoedRuns.length ? `<tr><th>echoes</th><td>run${t.echoedRuns.length === 1 ? '' : 's'} ${t.echoedRuns.join(', ')} succeeded only on text the attacker injected itself: ${t.echoesCounted ? 'counted as successes' : 'not counted as successes'}</td></tr>\n` : ''}</table>
${t.error ? `<details><summary>Error</summary><pre>${e(t.error)}</pre></details>` : ''}
${best}
</section>`
}

/** The frontier's answer: how far the search got, then its minimal wins and maximal losses with the runs that decided each. */
function frontierHtml(f: ReportFrontier): string {
  const point = (p: ReportFrontier['minimalWins'][number]) =>
    `<li><code>#${e(p.index)}</code> ${e(p.words)} ${p.verdict}${p.runs ? `: ${e(p.runs)}` : ''}${p.dirs.length > 0 ? ` <span class="classname">(${e(p.dirs[0])}${p.dirs.length > 1 ? ` and ${p.dirs.length - 1} more` : ''})</span>` : ''}</li>`
  return `<div class="card" id="frontier-answer"><p class="meta">${e(f.source)}. ${e(f.progress)}</p>
${f.minimalWins.length > 0 ? `<h3>${f.complete ? 'The weakest attackers that win' : 'Minimal wins so far'} (${f.minimalWins.length})</h3><ul>${f.minimalWins.map(point).join('')}</ul>` : `<p>${e(f.none)}</p>`}
${f.maximalLosses.length > 0 ? `<h3>The widest attackers that did not win, in the runs made (${f.maximalLosses.length})</h3><ul>${f.maximalLosses.map(point).join('')}</ul>` : ''}</div>`
}

export function renderReportHtml(r: Report): string {
  const legend = (r.frontierSource ? FRONTIER_LEGEND : CONTRAST_LEGEND)
    .map((l) => `<span><i class="swatch" style="background:${l.fill}"></i>${e(l.words)}</span>`)
    .join('')
  const about = r.frontierSource
    ? `${e(r.frontierSource)}. Per tag: how the minimal winning threat models hold it (granting a tag covers its subtree).`
    : 'Per tag: the ASR of the threat models whose grant covers it (scope or read only; granting a tag covers its subtree) against the ASR of those whose grant does not, ' +
      'each as successful / completed tasks with its 95% Wilson interval. A tag is red only when the 95% interval of the difference lies above zero.' +
      (r.models.length === 1 ? ' With one experiment there is nothing to compare: the outline shows its grant.' : '')
  const forest = r.forest
    ? `<div class="card"><p class="legend meta">${legend}${r.kind === 'experiment' ? '<span>red outline: read &amp; write · blue dashed: read only</span>' : ''}</p>
<p class="meta">${about}</p>
<div class="forest-wrap">${forestSvg(r.forest)}</div></div>`
    : `<div class="card notice">${e(r.forestNote)}</div>`
  const t = r.totals
  const attackers = [...new Set(r.models.map((m) => m.attacker))]
  const total = rateWords(t.nSuccess, t.nCompleted, { unit: 'task', attacker: attackers.length === 1 ? attackers[0] : null })
  return `${exportHead(`redscope report: ${r.title}`, STYLE)}
<body><main>
<h1>${e(r.title)}</h1>
<p class="meta">${r.kind === 'sweep' ? `A sweep of ${plural(r.models.length, 'threat model')}` : 'One experiment'} · results from ${e(r.source)} · report made ${e(r.generatedAt)}</p>
${r.notes.map((n) => `<div class="card notice">${e(n)}</div>`).join('\n')}
<div class="card"><table>
<tr><th>attack success</th><td>${e(total.text)} · ${plural(t.nTasks, 'task')} in all${r.models.length > 1 ? `, ${plural(r.models.length, 'threat model')} pooled` : ''}</td></tr>
<tr><th>cost and time</th><td>${e(t.costText)} · ${duration(t.seconds)}</td></tr>
${t.echoRuns ? `<tr><th>echoes</th><td>${plural(t.echoRuns, 'run')} succeeded only on text the attacker injected itself (${t.echoRunsCounted ? `${t.echoRunsCounted} counted as successes` : 'none counted as successes'})</td></tr>\n` : ''}</table></div>
<nav class="card toc" aria-label="Contents"><strong>Contents</strong><ol>
<li><a href="#forest">The forest, painted with the results</a></li>
${r.frontier ? '<li><a href="#frontier">The frontier</a></li>' : ''}
<li><a href="#models">Threat models</a><ol>${r.models.map((m) => `<li><a href="#${m.anchor}">${modelTitle(m)}</a> · ${e(asrOf(m).held ? `not broken in ${plural(m.nCompleted, 'task')}` : asrOf(m).short)}</li>`).join('')}</ol></li>
<li><a href="#compliance">By framework</a></li>
<li><a href="#tasks">Tasks</a> (${plural(r.tasks.length, 'task')})</li>
</ol></nav>
<h2 id="forest">The forest, painted with the results</h2>
${forest}
${r.frontier ? `<h2 id="frontier">The frontier</h2>\n${frontierHtml(r.frontier)}` : ''}
<h2 id="models">Threat models</h2>
${r.models.map((m) => modelHtml(m, r.tasks)).join('\n')}
<h2 id="compliance">By framework</h2>
${complianceHtml(r.compliance, e)}
<h2 id="tasks">Tasks</h2>
${r.tasks.map((x) => taskHtml(x, r.models)).join('\n')}
</main></body></html>
`
}

/**
 * The page as it is downloaded: redacted as a whole value first (the same
 * rules, and the same pass, as the finding export), then rendered.
 */
export function reportHtml(r: Report, rules: readonly RedactionRule[] = BUILTIN_RULES): string {
  return renderReportHtml(redactValue(r, compileRules(rules)))
}
