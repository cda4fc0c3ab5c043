/**
 * The finding as people read it, for the redaction dialog: every exported
 * text labelled by step and field ("Step 4 · content"), not by a JSON path;
 * and whole steps or fields the user chose to redact, replaced before the
 * pattern rules run, so that what is previewed is what is exported.
 */
import type { Finding, FindingStep } from './finding'

export const WHOLE_STEP_MASK = '[redacted: whole step]'
export const FIELD_MASK = '[redacted: field]'

/** A field of a step, as the dialog names it. */
export const fieldKey = (step: number, label: string) => `${step}:${label}`

export interface RedactedParts {
  /** Step numbers (as shown) whose every field and note are redacted. */
  readonly steps: ReadonlySet<number>
  /** `fieldKey(step, label)` of single fields to redact. */
  readonly fields: ReadonlySet<string>
}

export const NO_PARTS: RedactedParts = { steps: new Set(), fields: new Set() }

function redactStep(s: FindingStep, parts: RedactedParts): FindingStep {
  if (s.step === null) return s
  const whole = parts.steps.has(s.step)
  if (!whole && !s.fields.some((f) => parts.fields.has(fieldKey(s.step!, f.label)))) return s
  return {
    ...s,
    fields: s.fields.map((f) =>
      whole || parts.fields.has(fieldKey(s.step!, f.label)) ? { ...f, text: whole ? WHOLE_STEP_MASK : FIELD_MASK } : f,
    ),
    note: whole && s.note ? WHOLE_STEP_MASK : s.note,
  }
}

/** The finding with the chosen steps and fields masked (before any pattern rule). */
export function redactParts(f: Finding, parts: RedactedParts): Finding {
  if (parts.steps.size === 0 && parts.fields.size === 0) return f
  return { ...f, steps: f.steps.map((s) => redactStep(s, parts)) }
}

/** Every text the export shows, labelled as a person reads the page. */
export function* findingTexts(f: Finding): Generator<{ where: string; text: string }> {
  yield { where: 'Title', text: f.title }
  yield { where: 'Goal', text: f.task.goal }
  for (const [k, v] of Object.entries(f.task.config ?? {})) yield { where: `Configuration · ${k}`, text: v }
  for (const [k, v] of Object.entries(f.experiment)) yield { where: `Experiment · ${k}`, text: v }
  yield { where: 'Outcome', text: `${f.task.status} ${f.task.stopReason}` }
  for (const n of f.scope) yield { where: 'Scope', text: n }
  for (const n of f.readOnly) yield { where: 'Read only', text: n }
  if (f.notice) yield { where: 'Notice', text: f.notice }
  for (const t of f.forest?.tags ?? []) {
    yield { where: 'Forest · tag', text: t.name }
    if (t.description) yield { where: `Forest · ${t.name} description`, text: t.description }
  }
  if (f.evaluation) {
    yield { where: 'Evaluation · rationale', text: f.evaluation.rationale }
    for (const s of f.evaluation.subScores) yield { where: 'Evaluation · sub-score', text: s.name }
  }
  if (f.echo) {
    for (const t of f.echo.evidence.texts) yield { where: 'Echo · what the check matched', text: t }
    for (const i of f.echo.injections) yield { where: `Echo · injected into ${i.controllable}`, text: i.value }
    yield { where: "Echo · the claim's rationale", text: f.echo.claimed.rationale }
  }
  for (const s of f.steps) {
    const step = s.step === null ? 'Attacker-only step' : `Step ${s.step}`
    if (s.domain) yield { where: `${step} · domain`, text: s.domain }
    if (s.learnedVia) yield { where: `${step} · seen`, text: s.learnedVia }
    for (const field of s.fields) yield { where: `${step} · ${field.label}`, text: field.text }
    if (s.note) yield { where: `${step} · note`, text: s.note }
    for (const w of s.why) yield { where: `${step} · explanation`, text: w }
  }
}
