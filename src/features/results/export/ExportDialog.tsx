import { useMemo, useState } from 'react'
import { DEFAULT_FINDING_OPTIONS, fieldKey, type Finding, type RedactedParts, type StepAnnotation } from '../../../core/finding'
import { BUILTIN_RULES, compileRule, isRuleProblem, maskFor, secretRule, userRule, type RedactionRule } from '../../../core/redaction'
import { exportMask } from '../../../lib/heldSecrets'
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
  const finding = useMemo(
    () => findingOf(state, runRef, annotations, { ...DEFAULT_FINDING_OPTIONS, onlyBookmarked }, now),
    [state, runRef, annotations, onlyBookmarked, now],
  )
  const [parts, setParts] = useState<RedactedParts>({ steps: new Set(), fields: new Set() })
  const [secret, setSecret] = useState('')
  const [secretError, setSecretError] = useState<string | null>(null)
  const plan = useMemo(() => planExport(finding, rules, parts), [finding, rules, parts])

  const addSecret = () => {
    const n = custom.filter((c) => c.id.startsWith('secret-')).length + 1
    const rule = secretRule(`secret-${n}`, secret, `Secret value ${n}`)
    if ('error' in rule) {
      setSecretError(rule.error)
      return
    }
    setSecretError(null)
    setCustom([...custom, rule])
    // The typed secret is not kept anywhere once it is a rule.
    setSecret('')
  }

  // A configuration value (the demo claims' passphrase, a planted key) is the secret most worth masking in every form.
  const configEntries = Object.entries(state.experiment.taskConfigs.get(state.task.task.index) ?? {})
  const addConfigSecret = (key: string, value: string) => {
    const rule = secretRule(`config-${key}`, value, `Configuration value: ${key}`)
    if ('error' in rule) {
      setSecretError(`${key}: ${rule.error}`)
      return
    }
    setSecretError(null)
    setCustom([...custom, rule])
  }

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
    // The rules above are the user's; the keys this page holds are masked whatever they chose.
    const blob = new Blob([exportMask().mask(plan.html())], { type: 'text/html;charset=utf-8' })
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
    <dialog className="modal" aria-label="Export finding" ref={openModal} onClose={onClose} onKeyDown={(e) => e.stopPropagation()}>
      <h2>Export this finding</h2>
      <p>
        One HTML file with the forest, the scope, the steps with their notes and the evaluation. It runs no script and loads nothing from
        anywhere; it opens from a file.
      </p>
      <fieldset>
        <legend>Steps</legend>
        <label>
          <input type="radio" checked={!onlyBookmarked} onChange={() => setOnlyBookmarked(false)} /> All{' '}
          {finding.totalSteps.toLocaleString('en-US')} steps
          {finding.totalSteps > DEFAULT_FINDING_OPTIONS.maxSteps
            ? ` (the first ${DEFAULT_FINDING_OPTIONS.maxSteps.toLocaleString('en-US')})`
            : ''}
        </label>
        <label>
          <input type="radio" checked={onlyBookmarked} onChange={() => setOnlyBookmarked(true)} /> Only bookmarked steps (
          {[...annotations.values()].filter((a) => a.bookmarked).length})
        </label>
      </fieldset>
      <fieldset>
        <legend>Redaction (applied before export)</legend>
        {BUILTIN_RULES.map((r) => (
          <label key={r.id}>
            <input type="checkbox" checked={enabled.has(r.id)} onChange={() => toggle(r.id)} /> {r.label}
          </label>
        ))}
        {custom.map((r) => (
          <label key={r.id}>
            <input type="checkbox" checked onChange={() => setCustom(custom.filter((c) => c.id !== r.id))} /> {r.label}
          </label>
        ))}
        <form
          className="export__add"
          onSubmit={(e) => {
            e.preventDefault()
            addRule()
          }}
        >
          <input
            aria-label="Custom redaction pattern"
            placeholder="regular expression, e.g. ACME-\d{4}"
            value={pattern}
            onChange={(e) => setPattern(e.target.value)}
          />
          <button type="submit" disabled={pattern === ''}>
            Add rule
          </button>
        </form>
        {patternError && (
          <p className="results-error" role="alert">
            {patternError}
          </p>
        )}
        {plan.problems.map((p) => (
          <p key={p.rule.id} className="results-error">
            {p.rule.label}: {p.message}
          </p>
        ))}
        <p className="export__warning" data-testid="encoding-warning">
          Patterns catch only what they spell. A secret that was transformed or encoded (spelled out, reversed, base64, hex, translated)
          passes them, and attacks leak secrets exactly that way. Give the secret itself (a value from the task’s configuration, such as the
          passphrase): its rule also matches it spaced, reversed, in base64 and in hex.
        </p>
        <form
          className="export__add"
          onSubmit={(e) => {
            e.preventDefault()
            addSecret()
          }}
        >
          <input
            aria-label="Secret value to redact"
            type="password"
            autoComplete="off"
            placeholder="the secret, e.g. the passphrase"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
          <button type="submit" disabled={secret === ''}>
            Add secret rule
          </button>
        </form>
        {configEntries.length > 0 && (
          <p className="export__config" data-testid="config-secrets">
            From the task’s configuration:{' '}
            {configEntries.map(([k, v]) => (
              <button key={k} type="button" disabled={custom.some((c) => c.id === `config-${k}`)} onClick={() => addConfigSecret(k, v)}>
                Redact the value of {k} (and its encodings)
              </button>
            ))}
          </p>
        )}
        {secretError && (
          <p className="results-error" role="alert">
            {secretError}
          </p>
        )}
      </fieldset>
      <PartsPicker finding={finding} parts={parts} onChange={setParts} />
      <section className="export__preview" aria-label="Redaction preview">
        <h3>
          {plan.preview.total === 0
            ? 'Nothing will be masked.'
            : `${plan.preview.total} ${plan.preview.total === 1 ? 'value' : 'values'} will be masked`}
        </h3>
        {plan.preview.total > 0 && (
          <p>
            {Object.entries(plan.preview.countsByRule)
              .map(([id, n]) => `${id}: ${n}`)
              .join(' · ')}
          </p>
        )}
        <ul>
          {plan.preview.entries.map((e, i) => (
            <li key={i}>
              <span className="export__where">{e.where}</span>{' '}
              <code>
                …{e.before}
                <del>{e.match}</del>
                <ins>{maskFor(e.ruleId)}</ins>
                {e.after}…
              </code>
            </li>
          ))}
        </ul>
        {plan.preview.total > plan.preview.entries.length && (
          <p className="results-note">…and {plan.preview.total - plan.preview.entries.length} more.</p>
        )}
      </section>
      <div className="modal__actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button--primary" onClick={download}>
          Download HTML
        </button>
      </div>
    </dialog>
  )
}

/** Whole steps or single fields to redact, chosen by step number and field name as the page shows them. */
function PartsPicker({ finding, parts, onChange }: { finding: Finding; parts: RedactedParts; onChange: (p: RedactedParts) => void }) {
  const numbered = finding.steps.filter((s) => s.step !== null)
  const [step, setStep] = useState<number | null>(numbered[0]?.step ?? null)
  const [field, setField] = useState('')
  const fields = numbered.find((s) => s.step === step)?.fields.map((f) => f.label) ?? []
  const add = () => {
    if (step === null) return
    if (field === '') onChange({ ...parts, steps: new Set([...parts.steps, step]) })
    else onChange({ ...parts, fields: new Set([...parts.fields, fieldKey(step, field)]) })
  }
  const chosen = [
    ...[...parts.steps]
      .sort((a, b) => a - b)
      .map((n) => ({
        key: `s${n}`,
        text: `Step ${n}, whole`,
        drop: () => onChange({ ...parts, steps: new Set([...parts.steps].filter((x) => x !== n)) }),
      })),
    ...[...parts.fields].map((k) => {
      const [n, ...label] = k.split(':')
      return {
        key: `f${k}`,
        text: `Step ${n} · ${label.join(':')}`,
        drop: () => onChange({ ...parts, fields: new Set([...parts.fields].filter((x) => x !== k)) }),
      }
    }),
  ]
  return (
    <fieldset>
      <legend>Redact a whole step or field</legend>
      <div className="export__add">
        <select
          aria-label="Step to redact"
          value={step ?? ''}
          onChange={(e) => {
            setStep(Number(e.target.value))
            setField('')
          }}
        >
          {numbered.map((s) => (
            <option key={s.step} value={s.step!}>
              Step {s.step}: {s.kindWords}
            </option>
          ))}
        </select>
        <select aria-label="Field to redact" value={field} onChange={(e) => setField(e.target.value)}>
          <option value="">the whole step</option>
          {fields.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
        <button type="button" onClick={add} disabled={step === null}>
          Redact
        </button>
      </div>
      {chosen.map((c) => (
        <label key={c.key}>
          <input type="checkbox" checked onChange={c.drop} /> {c.text}
        </label>
      ))}
    </fieldset>
  )
}
