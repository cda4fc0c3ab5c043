import {
  buildFinding,
  findingTexts,
  NO_PARTS,
  redactParts,
  renderFindingHtml,
  type Finding,
  type FindingOptions,
  type RedactedParts,
  type StepAnnotation,
} from '../../../core/finding'
import { compileRules, previewRedaction, redactValue, type RedactionPreview, type RedactionRule } from '../../../core/redaction'
import type { RunRef } from '../paths'
import { echoItemIndices, echoOf, findingEvaluation, iterationOf, runEndEvaluation } from '../viewer/runInfo'
import type { RunReplayState } from '../viewer/useRunReplay'
import { costWords, runEndWords, sumUnpriced } from '../../../core/results'

type Ready = Extract<RunReplayState, { status: 'ready' }>

/** The run's cost in words when some calls had no price, and why it ended (run_records.json), when recorded. */
function runWords(state: Ready, run: number): { costText?: string; ended?: string } {
  const it = iterationOf(state.task, run)
  const records = state.task.runRecords
  const unpriced =
    records === null
      ? (state.experiment.unpriced.get(state.task.task.index) ?? null)
      : sumUnpriced(records.runs.filter((r) => r.run_number <= run).map((r) => r.unpriced))
  const own = records?.runs.find((r) => r.run_number === run)
  return {
    ...(it !== undefined && unpriced !== null
      ? { costText: costWords(it.usage_cumulative.cost, unpriced, { calls: it.usage_cumulative.calls }) }
      : {}),
    ...(own?.ended_by ? { ended: runEndWords(own.ended_by, own.turns, true) } : {}),
  }
}

/** The finding of one run, before redaction. */
export function findingOf(
  state: Ready,
  ref: RunRef,
  annotations: ReadonlyMap<number, StepAnnotation>,
  options: FindingOptions,
  now: Date,
): Finding {
  const e = state.experiment.manifest.experiment
  const t = state.task.task
  const it = iterationOf(state.task, ref.run)
  const echo = echoOf(state.task, ref.run)
  return buildFinding(
    state.replay,
    {
      experiment: { dir: ref.experiment, attacker: e.attacker, target: e.target, claim: e.claim, model: e.model ?? 'no-llm' },
      task: {
        index: t.index,
        goal: t.goal,
        status: t.status,
        stopReason: t.stop_reason,
        config: state.experiment.taskConfigs.get(t.index),
        runs: t.n_runs,
        success: t.success,
        references: state.experiment.taskReferences.get(t.index) ?? [],
      },
      run: {
        number: ref.run,
        score: it?.primary_score ?? null,
        success: it?.success ?? null,
        cumulativeCost: it?.usage_cumulative.cost ?? null,
        ...runWords(state, ref.run),
      },
      forest: state.forest.forest,
      evaluation: findingEvaluation(runEndEvaluation(state.replay.items)),
      echo:
        echo === undefined
          ? null
          : {
              counted: echo.counted,
              evidence: echo.evidence,
              injections: echo.injections,
              claimed: { success: echo.claimed.success, primaryScore: echo.claimed.primary_score.value, rationale: echo.claimed.rationale },
            },
      echoItems: echoItemIndices(state.replay.items, echo),
      exportedAt: now.toISOString(),
    },
    annotations,
    options,
  )
}

export interface ExportPlan {
  readonly preview: RedactionPreview
  readonly problems: ReadonlyArray<{ rule: RedactionRule; message: string }>
  /** The redacted page; built only when asked, as it walks every step. */
  html(): string
}

/**
 * What redaction will mask in this finding (for the preview, labelled by step and field), and the page it
 * will produce: the chosen whole steps and fields first, then the rules, on the very value that is rendered.
 */
export function planExport(finding: Finding, rules: readonly RedactionRule[], parts: RedactedParts = NO_PARTS): ExportPlan {
  const compiled = compileRules(rules)
  const masked = redactParts(finding, parts)
  return {
    preview: previewRedaction(findingTexts(masked), compiled),
    problems: compiled.problems,
    html: () => renderFindingHtml(redactValue(masked, compiled)),
  }
}

/** A file name from folder names (already path-safe in superred trees, made safe here anyway). */
export function exportFileName(ref: RunRef): string {
  return `finding-${ref.experiment}-${ref.task}-run${ref.run}.html`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 180)
}
