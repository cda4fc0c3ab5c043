import { complianceSummary, threatModelWords, type ComplianceSummary } from '../compliance/summary'
import type { Forest } from '../tags'
import type { ItemMark, PersistedItemLike } from '../replay/items'
import type { Replay, ViewSource } from '../replay/replay'
import { declinedByWords, plainKind, stepNumber } from '../replay/wording'
import { learnedWords } from '../replay/learned'

/**
 * One finding, as plain data: everything the self-contained HTML export
 * shows. Built from a replay and its annotations, then redacted as a whole
 * value, then rendered; so redaction sees exactly the text that is exported.
 */
export interface FindingStep {
  /** The item's index in the full trajectory (-1: a row only the attacker's view has). */
  readonly index: number
  /** The step number people see everywhere (1-based; null for an attacker-only row). */
  readonly step: number | null
  /** The event's class name, for engineers (shown on demand). */
  readonly type: string
  /** The kind in plain words. */
  readonly kindWords: string
  readonly writeVerdict: string
  readonly domain: string | null
  readonly mark: ItemMark
  readonly seenByAttacker: boolean
  /**
   * For a step hidden during the run whose text reached the attacker through the evaluation's feedback: where
   * from, in words ("via the evaluation's rationale (all of its answer)"); null otherwise.
   */
  readonly learnedVia: string | null
  /** This injection holds what the check matched in an echoed run. */
  readonly echo: boolean
  readonly why: readonly string[]
  readonly fields: ReadonlyArray<{ readonly label: string; readonly text: string }>
  readonly note: string
  readonly bookmarked: boolean
}

export interface FindingEvaluation {
  readonly success: boolean
  readonly primaryScore: number
  readonly rationale: string
  readonly subScores: ReadonlyArray<{ readonly name: string; readonly value: number; readonly domain: string | null }>
}

/** The run's success was the attacker's own echo (echoes.json): what matched, where it was injected, whether it counted. */
export interface FindingEcho {
  readonly counted: boolean
  readonly evidence: { readonly where: string; readonly texts: readonly string[] }
  readonly injections: ReadonlyArray<{ readonly controllable: string; readonly value: string }>
  /** The claim's own verdict before the echo rule. */
  readonly claimed: { readonly success: boolean; readonly primaryScore: number; readonly rationale: string }
}

export interface Finding {
  readonly title: string
  readonly experiment: Readonly<Record<'dir' | 'attacker' | 'target' | 'claim' | 'model', string>>
  readonly task: {
    readonly index: number
    readonly goal: string
    readonly status: string
    readonly stopReason: string
    /** The configuration the task ran with (the demo claims' defence), where the tree records it. */
    readonly config?: Readonly<Record<string, string>>
    /** The task's runs in all, where known: a task that held is worded "not broken in N runs by <attacker>". */
    readonly runs?: number
    /** Whether the task was breached (any run); the run's own success when not given. */
    readonly success?: boolean
    /** The task's framework references (its claim's included, task_configs.json), where recorded. */
    readonly references?: readonly string[]
  }
  readonly run: {
    readonly number: number
    readonly score: number | null
    readonly success: boolean | null
    readonly cumulativeCost: number | null
    /** The cost in words when some calls had no price ("unpriced (…)", "$x + unpriced (…)"): shown instead of the dollars. */
    readonly costText?: string
    /** Why the run ended, in words (run_records.json), when recorded. */
    readonly ended?: string
  }
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly coverageMode: 'forest' | 'names-only'
  readonly viewSource: ViewSource
  readonly forest: Forest | null
  readonly evaluation: FindingEvaluation | null
  /** Null when the run was not an echo (or the tree records none). */
  readonly echo: FindingEcho | null
  readonly steps: readonly FindingStep[]
  /** Steps left out (only bookmarked steps exported, or past the step cap). */
  readonly stepsOmitted: number
  readonly totalSteps: number
  readonly exportedAt: string
  readonly notice: string
  /** This task under this threat model, by framework (src/core/compliance): derived from the forest and the task's references. */
  readonly compliance: ComplianceSummary
}

export interface StepAnnotation {
  readonly note: string
  readonly bookmarked: boolean
}

export interface FindingOptions {
  readonly onlyBookmarked: boolean
  /** At most this many steps; the rest are counted in stepsOmitted. */
  readonly maxSteps: number
  /** Each field's text is cut to this many characters, saying how long it was. */
  readonly maxFieldChars: number
}

export const DEFAULT_FINDING_OPTIONS: FindingOptions = { onlyBookmarked: false, maxSteps: 5_000, maxFieldChars: 20_000 }

/** A value as text for display: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch (e) {
    // A cycle, or nesting deep enough to overflow the stack (String() of such an array overflows too).
    return `[this value cannot be shown as text: ${(e as Error).message}]`
  }
}

export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… [cut: ${text.length.toLocaleString('en-US')} characters in all]`
}

/** The labelled payload fields of an item, in reading order. */
export function itemFields(item: PersistedItemLike): Array<{ label: string; value: unknown }> {
  const rec = item as unknown as Record<string, unknown>
  const out: Array<{ label: string; value: unknown }> = []
  const surface = rec.controllable ?? rec.observable
  if (surface !== undefined && surface !== null) {
    out.push({
      label: rec.observable ? 'observable' : 'controllable',
      value: typeof surface === 'string' ? surface : (surface as { name?: unknown }).name,
    })
  }
  for (const key of ['request', 'answer', 'value', 'content', 'declined_by', 'done']) {
    if (key in rec && rec[key] !== undefined) out.push({ label: key, value: rec[key] })
  }
  if (rec.evaluation !== undefined) out.push({ label: 'evaluation', value: rec.evaluation })
  // Unknown item kinds: show whatever else they carry rather than nothing.
  const known = new Set([
    'kind',
    'type',
    'event_id',
    'timestamp',
    'security_domain',
    'controllable',
    'observable',
    'request',
    'answer',
    'value',
    'content',
    'declined_by',
    'done',
    'evaluation',
  ])
  for (const [k, v] of Object.entries(rec)) if (!known.has(k)) out.push({ label: k, value: v })
  return out
}

export interface FindingMeta {
  readonly experiment: Finding['experiment']
  readonly task: Finding['task']
  readonly run: Finding['run']
  readonly forest: Forest | null
  readonly evaluation: FindingEvaluation | null
  readonly echo?: FindingEcho | null
  /** Full-trajectory indices of the injections that held an echoed run's evidence. */
  readonly echoItems?: ReadonlySet<number>
  readonly exportedAt: string
}

export function buildFinding(
  replay: Replay,
  meta: FindingMeta,
  annotations: ReadonlyMap<number, StepAnnotation>,
  options: FindingOptions = DEFAULT_FINDING_OPTIONS,
): Finding {
  const steps: FindingStep[] = []
  let omitted = 0
  for (let row = 0; row < replay.rows; row++) {
    const index = replay.itemOfRow(row)
    const ann = annotations.get(index)
    if (options.onlyBookmarked && !ann?.bookmarked) {
      omitted++
      continue
    }
    if (steps.length >= options.maxSteps) {
      omitted++
      continue
    }
    const item = replay.fullItem(row) ?? replay.attackerItem(row)!
    const explanation = replay.explain(row)
    const learned = replay.learned(row)
    steps.push({
      index,
      step: stepNumber(index),
      type: item.type,
      kindWords: plainKind(item),
      writeVerdict: explanation.words.writeVerdict,
      domain: replay.domain(row),
      mark: replay.mark(row),
      seenByAttacker: replay.attackerItem(row) !== null,
      learnedVia: learned === null ? null : learnedWords(learned),
      echo: meta.echoItems?.has(index) ?? false,
      why: explanation.lines,
      fields: itemFields(item).map((f) =>
        f.label === 'declined_by'
          ? // Plain words for people; the viewer keeps the file's own field for engineers.
            { label: 'declined by', text: declinedByWords(typeof f.value === 'string' ? f.value : null) }
          : { label: f.label, text: cutText(valueText(f.value), options.maxFieldChars) },
      ),
      note: ann?.note ?? '',
      bookmarked: ann?.bookmarked ?? false,
    })
  }
  const names = replay.coverage.mode === 'names-only'
  const grant = replay.coverage.grant
  const compliance = complianceSummary(meta.forest, [
    {
      threatModel: threatModelWords('', grant.scope, grant.readOnly),
      scope: grant.scope,
      readOnly: grant.readOnly,
      taskReferences: meta.task.references ?? [],
      breached: meta.task.success ?? meta.run.success ?? false,
      runs: meta.task.runs ?? meta.run.number,
    },
  ])
  return {
    title: `${meta.task.goal} (run ${meta.run.number})`,
    experiment: meta.experiment,
    task: meta.task,
    run: meta.run,
    scope: replay.coverage.grant.scope,
    readOnly: replay.coverage.grant.readOnly,
    coverageMode: replay.coverage.mode,
    viewSource: replay.viewSource,
    forest: meta.forest,
    evaluation: meta.evaluation,
    echo: meta.echo ?? null,
    steps,
    stepsOmitted: omitted,
    totalSteps: replay.rows,
    exportedAt: meta.exportedAt,
    notice: names
      ? 'No forest was known for this run: coverage compares tag names only, so descendants of granted tags may be shown as hidden.'
      : '',
    compliance,
  }
}
