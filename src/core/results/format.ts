/**
 * The results tree's files as zod schemas: the reader parses every file with
 * them. Tolerant as superred's own readers: unknown fields are ignored,
 * schema 4 (no `declined_by`) and 5 are accepted, optional fields default.
 */
import { z } from 'zod'

export const SCHEMA_VERSION = 5
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [4, 5]
/** What a writer can write: 5 (redscope's default) or 4 (superred 0.3.0's, see schema4.ts). */
export type ResultsSchemaVersion = 4 | 5

const SchemaVersion = z
  .number()
  .int()
  .refine((v) => READABLE_SCHEMA_VERSIONS.includes(v), { message: 'schema_version is not one this reader knows (4 or 5)' })
const TagName = z.string().nullable()

export const UsageJson = z.object({ calls: z.number().int().default(0), cost: z.number().default(0) })
export const TimingJson = z.object({
  started_at: z.string().nullable().default(null),
  ended_at: z.string().nullable().default(null),
  duration_s: z.number().nullable().default(null),
})
export const ScoreJson = z.object({ name: z.string().default('primary'), value: z.number(), security_domain: TagName.default(null) })
export const EvaluationJson = z.object({
  success: z.boolean(),
  primary_score: ScoreJson,
  sub_scores: z.record(z.string(), ScoreJson).default({}),
  rationale: z.string().default(''),
})
export const ControllableJson = z.object({
  name: z.string(),
  security_domain: TagName,
  description: z.string().default(''),
  value_type: z.string().default('text'),
})
export const ObservableJson = z.object({
  name: z.string(),
  security_domain: TagName,
  description: z.string().default(''),
  observable_type: z.string().default('text'),
})

const eventBase = { kind: z.literal('event'), event_id: z.string(), timestamp: z.string(), security_domain: TagName }
export const ObservableEventJson = z.object({
  ...eventBase,
  type: z.literal('ObservableEvent'),
  observable: ObservableJson,
  content: z.unknown(),
})
export const PreCallEventJson = z.object({
  ...eventBase,
  type: z.literal('ControllablePreCallEvent'),
  controllable: ControllableJson,
  request: z.string(),
})
export const PostCallEventJson = z.object({
  ...eventBase,
  type: z.literal('ControllablePostCallEvent'),
  controllable: ControllableJson,
  request: z.string(),
  answer: z.string(),
})
export const RunEndEventJson = z.object({
  ...eventBase,
  type: z.literal('RunEndEvent'),
  evaluation: EvaluationJson.nullable().default(null),
})
export const InjectionJson = z.object({
  kind: z.literal('response'),
  type: z.literal('ControllableInjection'),
  controllable: z.string(),
  value: z.string(),
})
/** `declined_by` is null in a schema-4 tree: unknown, never to be read as "optimizer". */
export const NoInjectionJson = z.object({
  kind: z.literal('response'),
  type: z.literal('ControllableNoInjection'),
  controllable: z.string(),
  declined_by: z.enum(['scope', 'optimizer']).nullable().default(null),
})
export const RunEndResponseJson = z.object({
  kind: z.literal('response'),
  type: z.literal('RunEndResponse'),
  done: z.boolean().default(false),
})
export const PlainResponseJson = z.object({ kind: z.literal('response'), type: z.literal('EventResponse') })

const KNOWN_TYPES = new Set([
  'ObservableEvent',
  'ControllablePreCallEvent',
  'ControllablePostCallEvent',
  'RunEndEvent',
  'RunStartEvent',
  'ControllableInjection',
  'ControllableNoInjection',
  'RunEndResponse',
  'EventResponse',
])
/** An item of a type this reader does not know (a future or custom event): kept, not fatal. */
export const OtherItemJson = z.looseObject({ kind: z.enum(['event', 'response']), type: z.string().refine((t) => !KNOWN_TYPES.has(t)) })

export const KnownItemJson = z.discriminatedUnion('type', [
  ObservableEventJson,
  PreCallEventJson,
  PostCallEventJson,
  RunEndEventJson,
  InjectionJson,
  NoInjectionJson,
  RunEndResponseJson,
  PlainResponseJson,
])
export const TrajectoryItemJson = z.union([KnownItemJson, OtherItemJson])

export const TrajectoryFile = z.object({
  schema_version: SchemaVersion,
  run_number: z.number().int(),
  trajectory: z.array(TrajectoryItemJson),
})

export const IterationJson = z.object({
  run_number: z.number().int(),
  primary_score: z.number(),
  success: z.boolean(),
  evaluated: z.boolean().default(true),
  errored: z.boolean().default(false),
  done: z.boolean().default(false),
  usage_delta: UsageJson.default({ calls: 0, cost: 0 }),
  usage_cumulative: UsageJson.default({ calls: 0, cost: 0 }),
  timing: TimingJson.default({ started_at: null, ended_at: null, duration_s: null }),
  trajectory: z.string(),
})
export const IterationsFile = z.object({
  schema_version: SchemaVersion,
  index: z.number().int(),
  goal: z.string(),
  runs: z.array(IterationJson),
})

export const STATUSES = ['success', 'failed', 'budget_exhausted', 'error', 'timeout', 'timeout_empty'] as const
export const TaskStatusJson = z.enum(STATUSES)
export const StopReasonJson = z.enum(['success', 'done', 'max_runs', 'budget_exhausted', 'error', 'timeout'])

export const TaskFile = z.object({
  schema_version: SchemaVersion,
  index: z.number().int(),
  goal: z.string(),
  goal_hash: z.string(),
  scope: z.array(z.string()).default([]),
  read_only: z.array(z.string()).default([]),
  llm_config: z.object({ model: z.string() }).nullable().default(null),
  task_cost_cap_usd: z.number().nullable().default(null),
  task_time_cap_s: z.number().nullable().default(null),
  status: TaskStatusJson,
  success: z.boolean(),
  stop_reason: StopReasonJson,
  best_score: ScoreJson,
  best_evaluation: EvaluationJson,
  n_runs: z.number().int(),
  n_measured_runs: z.number().int().optional(),
  llm_usage: UsageJson,
  timing: TimingJson.default({ started_at: null, ended_at: null, duration_s: null }),
  error: z.string().nullable().default(null),
})

export const ExperimentJson = z.object({
  slug: z.string(),
  hash: z.string(),
  attacker: z.string(),
  target: z.string(),
  claim: z.string(),
  model: z.string().nullable(),
  scope: z.array(z.string()),
  read_only: z.array(z.string()).default([]),
  scope_label: z.string().nullable().default(null),
  task_cost_cap_usd: z.number().nullable().default(null),
  task_time_cap_s: z.number().nullable().default(null),
  max_runs_per_task: z.number().int(),
  include_feedback: z.boolean().default(true),
  concurrency: z.number().int().default(1),
  n_tasks: z.number().int().nullable().default(null),
})

export const SummaryJson = z.object({
  asr: z.number().nullable(),
  n_tasks: z.number().int(),
  n_success: z.number().int(),
  n_completed: z.number().int(),
  n_failed: z.number().int(),
  n_error: z.number().int(),
  n_budget_exhausted: z.number().int(),
  n_timeout: z.number().int().default(0),
  n_timeout_empty: z.number().int().default(0),
  n_skipped: z.number().int().default(0),
  max_primary_score: z.number().nullable(),
  mean_primary_score: z.number().nullable(),
  total_llm_usage: UsageJson,
})

export const ManifestTaskJson = z.object({
  index: z.number().int(),
  goal: z.string(),
  goal_hash: z.string(),
  dir: z.string().nullable(),
  status: z.union([TaskStatusJson, z.literal('skipped')]),
  success: z.boolean(),
  best_score: z.number(),
  stop_reason: z.union([StopReasonJson, z.literal('skipped')]),
  n_runs: z.number().int(),
  cost_usd: z.number(),
  has_error: z.boolean(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
})

const ExperimentTiming = z.object({ started_at: z.string().nullable().default(null), completed_at: z.string().nullable().default(null) })

export const ManifestFile = z.object({
  schema_version: SchemaVersion,
  status: z.enum(['in_progress', 'complete']),
  experiment: ExperimentJson,
  timing: ExperimentTiming,
  summary: SummaryJson,
  tasks: z.array(ManifestTaskJson),
})

export const ResultFile = z.object({
  schema_version: SchemaVersion,
  experiment: ExperimentJson,
  timing: ExperimentTiming,
  summary: SummaryJson,
})

export const ExperimentsIndexRow = z.object({
  dir: z.string(),
  slug: z.string(),
  hash: z.string(),
  status: z.string(),
  experiment: ExperimentJson,
  summary: z.object({
    asr: z.number().nullable(),
    n_success: z.number().int().nullable(),
    n_completed: z.number().int().nullable(),
    total_llm_usage: UsageJson.nullable(),
  }),
  completed_at: z.string().nullable(),
  /** redscope extra: the saved threat model's name (threat_model.json), so the list names it without opening each folder. */
  threat_model_name: z.string().optional(),
  /** redscope extra: the calls among total_llm_usage that had no price (unpriced.json), so the list never shows their $0 as measured. */
  unpriced: z.lazy(() => UnpricedJson).optional(),
})
export const ExperimentsIndexFile = z.object({ schema_version: SchemaVersion, experiments: z.array(ExperimentsIndexRow) })

/**
 * redscope extra, in the experiment folder: the configuration each task set on
 * the target (a claim file's `config`). Written only when some task has one;
 * superred ignores this file.
 */
export const TaskConfigsFile = z.object({
  schema_version: SchemaVersion,
  tasks: z.array(
    z.object({
      index: z.number().int(),
      goal: z.string(),
      config: z.record(z.string(), z.string()),
      // The task's framework references (its claim's included); absent in older trees.
      references: z.array(z.string()).optional(),
    }),
  ),
})
export const TASK_CONFIGS_FILE = 'task_configs.json'

/**
 * redscope extra, in the experiment folder: the name the user saved this
 * threat model under (the designer's saved threat models). Not part of the
 * identity: the folder is the scope's, and the last run of it names it.
 * superred ignores this file (and the row's `threat_model_name`).
 */
export const ThreatModelFile = z.object({ schema_version: SchemaVersion, name: z.string() })
export const THREAT_MODEL_FILE = 'threat_model.json'

/** redscope extra: what the optimizer was offered for a task. superred ignores this file. */
export const AttackerFile = z.object({
  schema_version: SchemaVersion,
  scope: z.array(z.string()),
  read_only: z.array(z.string()),
  controllables: z.array(ControllableJson),
  observables: z.array(z.object({ observable: ObservableJson, content: z.unknown() })),
})

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** An attacker's configuration: plain JSON with a `kind` (see attackerConfig.ts). */
export interface AttackerConfig {
  readonly kind: string
  readonly [key: string]: JsonValue
}

/**
 * redscope extra, at the experiment's root: the attacker's whole configuration (its label is derived from it
 * unless the user names it; a folder holding another is never resumed). superred ignores this file.
 */
export const ATTACKER_CONFIG_FILE = 'attacker_config.json'
export const AttackerConfigJson = z.looseObject({ kind: z.string().min(1) }).transform((c) => c as AttackerConfig)
export const AttackerConfigFile = z.object({ schema_version: SchemaVersion, config: AttackerConfigJson })

/**
 * redscope extra, in a task folder, written only when some run of the task was an echo: a success whose
 * evidence (what the check matched) the attacker had injected itself in that run (src/core/engine/echo.ts).
 * superred ignores this file; its own files hold the run as judged (a failure unless echoes were counted).
 */
export const TaskEchoesFile = z.object({
  schema_version: SchemaVersion,
  /** Whether echoes were counted as successes when this task ran (--count-echoes). */
  count_echoes: z.boolean(),
  runs: z.array(
    z.object({
      run_number: z.number().int(),
      counted: z.boolean(),
      evidence: z.object({ where: z.string(), texts: z.array(z.string()) }),
      /** The run's injections that hold the evidence. */
      injections: z.array(z.object({ controllable: z.string(), value: z.string() })),
      /** The claim's own evaluation of the run, before the echo rule. */
      claimed: EvaluationJson,
    }),
  ),
})
/**
 * redscope extra, in the experiment folder: which tasks had echoed runs (so the experiment's page and reports
 * count them without reading every task), rewritten with the manifest while any task has one.
 */
export const ExperimentEchoesFile = z.object({
  schema_version: SchemaVersion,
  count_echoes: z.boolean(),
  tasks: z.array(z.object({ index: z.number().int(), runs: z.array(z.number().int()) })),
})
export const ECHOES_FILE = 'echoes.json'
/**
 * redscope extra, in a task folder: what the attacker recorded of its reasoning (a served superred optimizer's
 * LLM replies, e.g. PAIR's `{"improvement", "prompt"}`), by run (0: before the first). Written only when there is
 * some; superred ignores this file.
 */
export const ATTACKER_NOTES_FILE = 'attacker_notes.json'
export const AttackerNotesFile = z.object({
  schema_version: SchemaVersion,
  notes: z.array(z.object({ run: z.number().int().min(0), during: z.string(), text: z.string() })),
})

/**
 * LLM calls billed at no known price (a local model, one the price table lacks): superred's `cost` counts them as
 * 0, so every reader that shows a cost says "unpriced" beside (or instead of) the dollars. redscope extra.
 */
export const UnpricedJson = z.object({
  calls: z.number().int().min(0),
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
})

/**
 * redscope extra, in the experiment folder: the tasks whose LLM usage holds unpriced calls, by index (so totals
 * say "+ unpriced" without reading every task), rewritten with the manifest while any task has some.
 * superred ignores this file; its own `cost` fields stay numbers (the priced calls' dollars).
 */
export const UNPRICED_FILE = 'unpriced.json'
export const ExperimentUnpricedFile = z.object({
  schema_version: SchemaVersion,
  tasks: z.array(UnpricedJson.extend({ index: z.number().int() })),
})

/**
 * redscope extra, in a task folder: what superred's iterations.json has no place for, per run: why it ended
 * (RunEndCause: the target finished, the attacker declined, its turn limit, the time cap, an error), the pauses the
 * attacker was asked about, and its unpriced calls; with the task's unpriced total. superred ignores this file.
 */
export const RUN_RECORDS_FILE = 'run_records.json'
export const RunEndCauseJson = z.enum(['target', 'declined', 'turn_limit', 'time_cap', 'error'])
export const RunRecordsFile = z.object({
  schema_version: SchemaVersion,
  unpriced: UnpricedJson.nullable().default(null),
  runs: z.array(
    z.object({
      run_number: z.number().int(),
      ended_by: RunEndCauseJson.nullable().default(null),
      turns: z.number().int().min(0).nullable().default(null),
      unpriced: UnpricedJson.nullable().default(null),
    }),
  ),
})

export type UnpricedJson = z.infer<typeof UnpricedJson>
export type RunRecordsFile = z.infer<typeof RunRecordsFile>
export type ExperimentUnpricedFile = z.infer<typeof ExperimentUnpricedFile>
export type UsageJson = z.infer<typeof UsageJson>
export type ScoreJson = z.infer<typeof ScoreJson>
export type EvaluationJson = z.infer<typeof EvaluationJson>
export type ControllableJson = z.infer<typeof ControllableJson>
export type ObservableJson = z.infer<typeof ObservableJson>
export type TrajectoryItemJson = z.infer<typeof TrajectoryItemJson>
export type TrajectoryFile = z.infer<typeof TrajectoryFile>
export type IterationJson = z.infer<typeof IterationJson>
export type IterationsFile = z.infer<typeof IterationsFile>
export type TaskStatus = z.infer<typeof TaskStatusJson>
export type TaskFile = z.infer<typeof TaskFile>
export type ExperimentJson = z.infer<typeof ExperimentJson>
export type SummaryJson = z.infer<typeof SummaryJson>
export type ManifestTaskJson = z.infer<typeof ManifestTaskJson>
export type ManifestFile = z.infer<typeof ManifestFile>
export type ResultFile = z.infer<typeof ResultFile>
export type ExperimentsIndexRow = z.infer<typeof ExperimentsIndexRow>
export type ExperimentsIndexFile = z.infer<typeof ExperimentsIndexFile>
export type AttackerFile = z.infer<typeof AttackerFile>
export type TaskConfigsFile = z.infer<typeof TaskConfigsFile>
export type TaskEchoesFile = z.infer<typeof TaskEchoesFile>
export type ExperimentEchoesFile = z.infer<typeof ExperimentEchoesFile>
export type AttackerNotesFile = z.infer<typeof AttackerNotesFile>
