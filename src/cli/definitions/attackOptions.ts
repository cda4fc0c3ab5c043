/**
 * The option groups of every command that attacks a target (`run`, and the
 * commands that run many threat models): spread them into a definition's
 * options so that the flags mean the same everywhere.
 */
import type { OptionsSpec } from '../command'
import { DEFAULT_INJECT_ON, DEFAULT_MAX_RUNS_PER_TASK } from '../../core/defaults'

export const TARGET_OPTIONS = {
  target: {
    type: 'string',
    value: 'URL',
    group: 'Target and claim',
    description: 'the target server (Target-over-HTTP); its token from $REDSCOPE_TARGET_TOKEN',
  },
  claim: {
    type: 'string',
    value: 'CLAIM.json',
    group: 'Target and claim',
    description: 'the claim file: tasks, their config and evaluator (default: the claim the target serves, if it serves one)',
  },
  'request-timeout': {
    type: 'string',
    value: 'S',
    group: 'Target and claim',
    description: 'seconds before a target request fails its task',
  },
  'count-echoes': {
    type: 'boolean',
    group: 'Target and claim',
    description:
      "count an echo as a breach: a success whose evidence (what the check matched) is in the attacker's own injection of that run; by default such a run is marked echoed and judged a failure",
  },
  'capacity-wait': {
    type: 'string',
    value: 'S',
    group: 'Target and claim',
    description:
      'seconds to wait for a free session while the target answers 503 capacity, said on stderr, before the task gives up (default 600)',
  },
} as const satisfies OptionsSpec

export const ATTACKER_OPTIONS = {
  optimizer: {
    type: 'string',
    value: 'KIND',
    group: 'Attacker',
    description: 'template (default), llm, replay, human, or served (with --optimizer-url)',
  },
  'optimizer-url': {
    type: 'string',
    value: 'URL',
    group: 'Attacker',
    description: 'a server of superred optimizers (redscope-bridge serve --optimizer ...); its token from $REDSCOPE_OPTIMIZER_TOKEN',
  },
  'optimizer-name': {
    type: 'string',
    value: 'NAME',
    group: 'Attacker',
    description: "the served optimizer to attack with (its list: the server's /optimizers)",
  },
  'optimizer-kwargs': {
    type: 'string',
    value: 'JSON',
    group: 'Attacker',
    description: "the served optimizer's keyword arguments, a JSON object (or @FILE)",
  },
  template: {
    type: 'string',
    multiple: true,
    value: 'T',
    group: 'Attacker',
    description:
      'a payload name, @FILE, or the text itself (default: the whole library). The template attacker is a fixed list tried in order, one payload a run, each filled from the goal and the surface ({instruction}, {surface}, {request}, {goal}, {controllable}); it reads no feedback and does not search. Fewer payloads than --max-runs: it cycles through them until a success or the cap (under --semantics superred-0.3.0, done after the last)',
  },
  'inject-on': {
    type: 'string',
    value: 'WHEN',
    group: 'Attacker',
    description: `pre, post or both (default: ${DEFAULT_INJECT_ON.template} for template, ${DEFAULT_INJECT_ON.llm} for llm)`,
  },
  model: { type: 'string', value: 'M', group: 'Attacker', description: "the llm attacker's model; its key from $OPENAI_API_KEY only" },
  'base-url': { type: 'string', value: 'U', group: 'Attacker', description: 'an OpenAI-compatible endpoint (default: OpenAI)' },
  'max-turns': {
    type: 'string',
    value: 'N',
    group: 'Attacker',
    description: 'llm attacker: pauses answered per run, then it declines (ends a conversation; default 10)',
  },
  'price-in': {
    type: 'string',
    value: 'USD',
    group: 'Attacker',
    description: "--model's input price per 1M tokens (default: OpenAI's list price on OpenAI's endpoint, else unpriced)",
  },
  'price-out': {
    type: 'string',
    value: 'USD',
    group: 'Attacker',
    description: "--model's output price per 1M tokens (an unpriced model's cost shows as unpriced; --cost-cap needs a price)",
  },
  'llm-timeout': {
    type: 'string',
    value: 'S',
    group: 'Attacker',
    description: 'seconds per LLM call (the SDK retries a timeout or a 429 twice)',
  },
  replay: {
    type: 'string',
    value: 'PATH',
    group: 'Attacker',
    description: "a run's trajectory (run_NNNNN.json) or a task folder to replay",
  },
  'judge-model': { type: 'string', value: 'M', group: 'Attacker', description: "the llm_judge evaluator's model (default: --model)" },
  'judge-base-url': { type: 'string', value: 'U', group: 'Attacker', description: "the judge's endpoint (default: --base-url)" },
} as const satisfies OptionsSpec

export const BUDGET_OPTIONS = {
  'max-runs': {
    type: 'string',
    value: 'N',
    group: 'Budget',
    description: `runs per task at most (default ${DEFAULT_MAX_RUNS_PER_TASK}, superred's, as in the browser)`,
  },
  'cost-cap': { type: 'string', value: 'USD', group: 'Budget', description: 'LLM spend per task at most' },
  'time-cap': { type: 'string', value: 'S', group: 'Budget', description: 'seconds per task at most' },
  concurrency: { type: 'string', value: 'N', group: 'Budget', description: 'tasks (and target sessions) at once' },
  'no-feedback': { type: 'boolean', group: 'Budget', description: "don't pass the evaluator's feedback to the attacker between runs" },
} as const satisfies OptionsSpec

/**
 * `--attacker-label`: every attacking command names its experiments the same way. Without it the label is derived
 * from the attacker's whole configuration, so a changed attacker never resumes another's results (issue 31).
 */
export const ATTACKER_LABEL_OPTION = {
  type: 'string',
  value: 'L',
  group: 'Output',
  description:
    "the attacker's name in the experiment folders (default: its kind and a hash of its configuration, e.g. " +
    'template-3f2a9c1b); a folder that holds another configuration under it is refused (exit 2)',
} as const
