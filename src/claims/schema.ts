/**
 * The claim file: `{"name", "tasks": [{"goal", "config", "evaluator"}]}`.
 * Parsed with zod, so a bad file is refused with the path of the bad field
 * (`tasks[2].evaluator.pattern: ...`) before anything runs.
 */
import { z } from 'zod'
import { ReferencesSchema } from '../core/compliance/references'
import { PatternError, userPattern } from '../core/patterns'

/**
 * A regex source and its flags, checked to compile on the linear-time engine
 * the evaluators run it on (the flags' own errors are named on `flags`).
 */
function withValidRegex<T extends { pattern: string; flags: string }>(value: T, ctx: z.RefinementCtx): void {
  try {
    userPattern(value.pattern, value.flags)
  } catch (e) {
    if (!(e instanceof PatternError)) throw e
    ctx.addIssue({ code: 'custom', path: [e.field], message: e.message })
  }
}

const params = z.record(z.string(), z.string()).optional().default({})

export const QueryMatchSchema = z
  .object({
    type: z.literal('query_match'),
    query: z.string().min(1, 'must name a query'),
    params,
    pattern: z.string().min(1, 'must be a regular expression'),
    flags: z.string().optional().default(''),
  })
  .superRefine(withValidRegex)

export const QueryEvaluationSchema = z.object({
  type: z.literal('query_evaluation'),
  query: z.string().min(1, 'must name a query'),
  params,
})

export const TrajectoryMatchSchema = z
  .object({
    type: z.literal('trajectory_match'),
    observable: z.string().min(1, 'must name an observable'),
    pattern: z.string().min(1, 'must be a regular expression'),
    flags: z.string().optional().default(''),
  })
  .superRefine(withValidRegex)

export const LlmJudgeSchema = z.object({
  type: z.literal('llm_judge'),
  /** What counts as success, in words, beside the goal. */
  criteria: z.string().min(1, 'must say what counts as success'),
  /** Observables shown to the judge; all when absent. */
  observables: z.array(z.string().min(1)).optional(),
  /** A query whose answer is shown too (e.g. what the target did). */
  query: z.object({ name: z.string().min(1), params }).optional(),
})

/** The served task's own evaluate, run on the target's side after each run (a task with `served_task`). */
export const ServedEvaluationSchema = z.object({ type: z.literal('served') })

export const EvaluatorSchema = z.discriminatedUnion('type', [
  QueryMatchSchema,
  QueryEvaluationSchema,
  TrajectoryMatchSchema,
  LlmJudgeSchema,
  ServedEvaluationSchema,
])

export const ClaimTaskSchema = z
  .object({
    goal: z.string().trim().min(1, 'must describe the attack goal'),
    config: z
      .record(z.string(), z.string({ error: 'config values are strings' }))
      .optional()
      .default({}),
    /**
     * A task of the claim the target serves itself (its manifest's `claim`, numbered from 1): the target
     * configures the session with it (before `config`) and judges each run with its own code.
     */
    served_task: z.number().int().min(1, 'served tasks are numbered from 1').optional(),
    evaluator: EvaluatorSchema,
    /** Framework references of this task (`LLM01`, `AML.T0051`, ...), besides the claim's own. */
    references: ReferencesSchema.optional(),
  })
  .superRefine((t, ctx) => {
    if (t.evaluator.type === 'served' && t.served_task === undefined) {
      ctx.addIssue({ code: 'custom', path: ['evaluator'], message: "a 'served' evaluator needs the task's served_task" })
    }
  })

export const ClaimFileSchema = z.object({
  name: z.string().trim().min(1, 'must name the claim'),
  description: z.string().optional(),
  /** Addition: which reference target the claim is written for (the browser lists claims per target). */
  target: z.string().optional(),
  /** Framework references every task of the claim carries (src/core/compliance/frameworks.ts lists the ids). */
  references: ReferencesSchema.optional(),
  tasks: z.array(ClaimTaskSchema).min(1, 'a claim needs at least one task'),
})

export type Evaluator = z.infer<typeof EvaluatorSchema>
export type ClaimTask = z.infer<typeof ClaimTaskSchema>
export type ClaimFile = z.infer<typeof ClaimFileSchema>
