import { useMemo, useState } from 'react'
import { DEFAULT_FINDING_OPTIONS, type StepAnnotation } from '../../../core/finding'
import { BUILTIN_RULES, compileRule, isRuleProblem, maskFor, userRule, type RedactionRule } from '../../../core/redaction'
import type { RunRef } from '../paths'
import type { RunReplayState } from '../viewer/useRunReplay'
import { exportFileName, findingOf, planExport } from './exportFinding'

interface Props {
  readonly state: Extract<RunReplayState, { status: 'ready' }>
  readonly runRef: RunRef
  readonly annotations: ReadonlyMap<number, StepAnnotation>
  readonly onClose: () => void
}

/**
 * Export one finding as a single HTML file: choose the steps, choose the
 * redaction rules (built-ins on by default, plus any regex), see what will be
 * masked, then download. Nothing is exported unredacted by accident: the
 * preview is computed from the very value that is rendered.
 */
function openModal(el: HTMLDialogElement | null) {
  if (el && !el.open) el.showModal()
}

export function ExportDialog({ state, runRef, annotations, onClose }: Props) {
  const [enabled, setEnabled] = useState<ReadonlySet<string>>(() => new Set(BUILTIN_RULES.map((r) => r.id)))
  const [custom, setCustom] = useState<RedactionRule[]>([])
  const [pattern, setPattern] = useState('')
  const [patternError, setPatternError] = useState<string | null>(null)
  const [onlyBookmarked, setOnlyBookmarked] = useState(false)
  const [now] = useState(() => new Date())
  const rules = useMemo(() => [...BUILTIN_RULES.filter((r) => enabled.has(r.id)), ...custom], [enabled, custom])
  const finding = useMemo(() => findingOf(state, runRef, annotations, { ...DEFAULT_FINDING_OPTIONS, onlyBookmarked }, now),
    [state, runRef, annotations, onlyBookmarked, now])
  const plan = useMemo(() => planExport(finding, rules), [finding, rules])

  const addRule = () => {
    const compiled = compileRule({ pattern, flags: 'g' })
    if (isRuleProblem(compiled)) {
      setPatternError(compiled.message)
      return
    }
    setPatternError(null)
    setCustom([...custom, userRule(`custom-${custom.length + 1}`, pattern)])
    setPattern('')
  }
  const download = () => {
    const blob = new Blob([plan.html()], { type: 'text/html;charset=utf-8' })
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = exportFileName(runRef)
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 1_000)
  }
  const toggle = (id: string) => {
    const next = new Set(enabled)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    setEnabled(next)
  }

  return (
    // A native modal dialog: focus moves into it, Escape closes it, the page behind is inert.
    <dialog className="modal" aria-label="Export finding" ref={openModal} onClose={onClose}
      onKeyDown={(e) => e.stopPropagation()}>
        <h2>Export this finding</h2>
        <p>One HTML file with the forest, the scope, the steps with their notes and the evaluation. It runs no script and loads nothing from anywhere; it opens from a file.</p>
        <fieldset>
          <legend>Steps</legend>
          <label><input type="radio" checked={!onlyBookmarked} onChange={() => setOnlyBookmarked(false)} /> All {finding.totalSteps.toLocaleString('en-US')} steps{finding.totalSteps > DEFAULT_FINDING_OPTIONS.maxSteps ? ` (the first ${DEFAULT_FINDING_OPTIONS.maxSteps.toLocaleString('en-US')})` : ''}</label>
          <label><input type="radio" checked={onlyBookmarked} onChange={() => setOnlyBookmarked(true)} /> Only bookmarked steps ({[...annotations.values()].filter((a) => a.bookmarked).length})</label>
        </fieldset>
        <fieldset>
          <legend>Redaction (applied before export)</legend>
          {BUILTIN_RULES.map((r) => (
            <label key={r.id}><input type="checkbox" checked={enabled.has(r.id)} onChange={() => toggle(r.id)} /> {r.label}</label>
          ))}
          {custom.map((r) => (
            <label key={r.id}><input type="checkbox" checked onChange={() => setCustom(custom.filter((c) => c.id !== r.id))} /> {r.label}</label>
          ))}
          <form className="export__add" onSubmit={(e) => { e.preventDefault(); addRule() }}>
            <input aria-label="Custom redaction pattern" placeholder="regular expression, e.g. ACME-\d{4}" value={pattern} onChange={(e) => setPattern(e.target.value)} />
            <button type="submit" disabled={pattern === ''}>Add rule</button>
          </form>
          {patternError && <p className="results-error" role="alert">{patternError}</p>}
          {plan.problems.map((p) => <p key={p.rule.id} className="results-error">{p.rule.label}: {p.message}</p>)}
        </fieldset>
        <section className="export__preview" aria-label="Redaction preview">
          <h3>{plan.preview.total === 0 ? 'Nothing will be masked.' : `${plan.preview.total} ${plan.preview.total === 1 ? 'value' : 'values'} will be masked`}</h3>
          {plan.preview.total > 0 && (
            <p>{Object.entries(plan.preview.countsByRule).map(([id, n]) => `${id}: ${n}`).join(' · ')}</p>
          )}
          <ul>
            {plan.preview.entries.map((e, i) => (
              <li key={i}>
                <span className="export__where">{e.where}</span>
                <code>…{e.before}<del>{e.match}</del><ins>{maskFor(e.ruleId)}</ins>{e.after}…</code>
              </li>
            ))}
          </ul>
          {plan.preview.total > plan.preview.entries.length && <p className="results-note">…and {plan.preview.total - plan.preview.entries.length} more.</p>}
        </section>
        <div className="modal__actions">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="button" className="button--primary" onClick={download}>Download HTML</button>
        </div>
    </dialog>
  )
}
