/**
 * The one set of defaults for everything that enters an experiment's identity (its folder name, superred's
 * identity hash) or its attacker's configuration (the attacker label redscope derives from it). The CLI's
 * flags and the run console's setup both read them here, so the same threat model run from either lands in the
 * same results folder (src/features/run-console/runner/cliParity.test.ts proves it).
 */

/**
 * superred's Controller: `max_runs_per_task=None` means 100. The browser used 8 before (a quick demo), which
 * made its experiments other measurements than the CLI's and superred's: a verdict says how many runs it took,
 * so the browser asks for the same number unless the user types another (the console then says it differs).
 */
export const DEFAULT_MAX_RUNS_PER_TASK = 100

/** No LLM spend cap per task (superred's default). */
export const DEFAULT_TASK_COST_CAP_USD: number | null = null

/** No wall-clock cap per task (superred's default; not part of the identity hash). */
export const DEFAULT_TASK_TIME_CAP_S: number | null = null

/** The evaluator's scope-filtered feedback reaches the attacker between runs (superred's default). */
export const DEFAULT_INCLUDE_FEEDBACK = true

/** Where each attacker injects unless told: a template is one message before the call; an LLM answers at both. */
export const DEFAULT_INJECT_ON = { template: 'pre', llm: 'both' } as const

/** The LLM attacker's sampling and memory, recorded in its configuration. */
export const DEFAULT_LLM_ATTACKER = {
  temperature: 0.7,
  maxTokens: 600,
  /** Earlier runs shown to the model (the most recent ones). */
  historyRuns: 5,
} as const
