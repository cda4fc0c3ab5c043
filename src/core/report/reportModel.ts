/**
 * A report of a whole experiment or sweep, as plain data: what the HTML report
 * shows, built from results already read (no I/O here). Like the finding, it is
 * redacted as a whole value before it is rendered, so redaction sees exactly
 * the text that is exported.
 */
import type { ComplianceSummary } from '../compliance/summary'
import type { Forest } from '../tags'
import type { UnpricedJson } from '../results/format'
import type { ItemMark } from '../replay/items'
import type { FrontierTagPaint, TagPaint } from '../sweep/paint'

export interface ReportStep {
  /** The item's index in the trajectory (0-based): anchors only. */
  readonly index: number
  /** The step number the viewer and the finding export show (index + 1); null for an item only the attacker saw. */
  readonly step: number | null
  /** Plain words for what the step is ("injection (attacker wrote here)"); the class name beside it. */
  readonly what: string
  readonly type: string
  readonly mark: ItemMark
  readonly domain: string | null
  readonly seenByAttacker: boolean
  /** Hidden during the run, but its text reached the attacker through the evaluation's feedback: from where, in words. */
  readonly learnedVia: string | null
  readonly fields: ReadonlyArray<{ readonly label: string; readonly text: string }>
}

export interface ReportBestRun {
  readonly number: number
  readonly score: number
  readonly success: boolean
  readonly cost: number | null
  /** The cost so far in words: "unpriced (…)" or "$x + unpriced (…)" when calls had no price (src/core/results/cost.ts). */
  readonly costText: string
  /** Why the run ended, in words (run_records.json); '' when the tree does not record it. */
  readonly ended: string
  readonly seconds: number | null
  readonly keySteps: readonly ReportStep[]
  /** Steps of the run not shown (only the key ones are). */
  readonly otherSteps: number
  /** Why the trajectory is missing, when it is. */
  readonly missing: string
}

export interface ReportTask {
  readonly anchor: string
  readonly modelAnchor: string
  readonly index: number
  readonly goal: string
  readonly status: string
  readonly stopReason: string
  /** The configuration the task ran with, as key and value, where the tree records it. */
  readonly config: ReadonlyArray<readonly [string, string]>
  readonly success: boolean
  readonly bestScore: number
  readonly runs: number
  readonly cost: number
  /** The cost in words, saying "unpriced" for calls with no price, never a $0 read as measured. */
  readonly costText: string
  /** How its runs ended ("2 turn limit, 1 target finished"); '' when the tree does not record it. */
  readonly runEnds: string
  readonly seconds: number | null
  readonly error: string
  readonly bestRun: ReportBestRun | null
  /** Runs whose success was the attacker's own echo (echoes.json), and whether they counted as successes. */
  readonly echoedRuns: readonly number[]
  readonly echoesCounted: boolean
}

export interface ReportThreatModel {
  readonly anchor: string
  readonly dir: string
  readonly label: string
  /** The experiment's attacker label: who did (or did not) break it. */
  readonly attacker: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** What the grant lets an attacker do, in words built from the tags' descriptions. */
  readonly grants: string
  readonly status: string
  readonly asr: number | null
  readonly nSuccess: number
  readonly nCompleted: number
  readonly nTasks: number
  readonly cost: number
  readonly calls: number
  /** Its calls that had no price (unpriced.json), summed over its tasks; null when every call was priced. */
  readonly unpriced: UnpricedJson | null
  readonly costText: string
  readonly seconds: number | null
  readonly configuration: ReadonlyArray<readonly [string, string]>
  readonly taskAnchors: readonly string[]
  /** Echoed runs and the tasks they were in (echoes.json). */
  readonly echoRuns: number
  readonly echoTasks: number
}

export interface ReportTagPaint {
  readonly name: string
  readonly parent: string | null
  readonly description: string
  /** The threat models that grant the tag against those that do not (src/core/sweep/paint.ts). */
  readonly contrast: TagPaint
  /** How the minimal winners of a known frontier hold the tag; null when no frontier is known. */
  readonly frontier: FrontierTagPaint | null
  /** For one experiment: how its grant reaches the tag. */
  readonly grant: 'write' | 'read' | 'none'
}

export interface ReportFrontierPoint {
  readonly index: string
  readonly words: string
  readonly verdict: 'wins' | 'loses'
  /** The runs that decided it, in words that claim no more ("not broken in 3 runs by x"). */
  readonly runs: string
  readonly dirs: readonly string[]
}

/** A frontier search's answer to the report's question (src/core/frontier/answer.ts), listed after the forest. */
export interface ReportFrontier {
  readonly source: string
  readonly progress: string
  readonly none: string
  readonly complete: boolean
  readonly minimalWins: readonly ReportFrontierPoint[]
  readonly maximalLosses: readonly ReportFrontierPoint[]
}

export interface Report {
  readonly kind: 'experiment' | 'sweep'
  readonly title: string
  readonly source: string
  readonly generatedAt: string
  readonly forest: readonly ReportTagPaint[] | null
  readonly forestNote: string
  /** Where the painted frontier comes from ("frontier.json of results/x"); empty when the forest shows with against without. */
  readonly frontierSource: string
  /** The frontier's minimal wins and maximal losses, when one is known with its answer; null otherwise. */
  readonly frontier: ReportFrontier | null
  readonly models: readonly ReportThreatModel[]
  readonly tasks: readonly ReportTask[]
  /** The summary by framework (src/core/compliance), derived from the forest's and the tasks' references. */
  readonly compliance: ComplianceSummary
  /** What could not be read or was left out, in plain words. */
  readonly notes: readonly string[]
  readonly totals: {
    readonly cost: number
    readonly costText: string
    readonly seconds: number | null
    readonly nSuccess: number
    readonly nCompleted: number
    readonly nTasks: number
    /** Echoed runs in all, and how many of them counted as successes. */
    readonly echoRuns: number
    readonly echoRunsCounted: number
  }
}

export type { Forest }
