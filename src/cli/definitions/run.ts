import { defineCommand, type OptionsSpec } from '../command'
import { DEFAULT_MAX_RUNS_PER_TASK } from '../../core/defaults'
import { ATTACKER_LABEL_OPTION, ATTACKER_OPTIONS, BUDGET_OPTIONS, TARGET_OPTIONS } from './attackOptions'

export const runOptions = {
  ...TARGET_OPTIONS,
  scope: { type: 'string', multiple: true, value: 'TAGS', group: 'Threat model', description: 'tags the attacker reads and writes (a,b)' },
  'read-only': { type: 'string', multiple: true, value: 'TAGS', group: 'Threat model', description: 'tags the attacker only reads' },
  ...ATTACKER_OPTIONS,
  ...BUDGET_OPTIONS,
  out: { type: 'string', value: 'DIR', group: 'Output', description: 'the results root (default ./superred-results); a rerun resumes' },
  'attacker-label': ATTACKER_LABEL_OPTION,
  'target-label': {
    type: 'string',
    value: 'L',
    group: 'Output',
    description: "the target's name in the slug (default: its manifest's name)",
  },
  'claim-label': { type: 'string', value: 'L', group: 'Output', description: "the claim's name in the slug" },
  semantics: {
    type: 'string',
    value: 'redscope|superred-0.3.0',
    group: 'Compatibility',
    description: "the Controller's behaviour: redscope's (default; stops a task at its first success) or the published superred 0.3.0's",
  },
  'results-schema': {
    type: 'string',
    value: '4|5',
    group: 'Compatibility',
    description: 'the results schema to write (default 5; 4 under --semantics superred-0.3.0, which its reader expects)',
  },
} as const satisfies OptionsSpec

export const run = defineCommand({
  name: 'run',
  summary: "one threat model against a live target, written as superred's results tree",
  synopsis: '',
  positionals: { min: 0, max: 0 },
  required: ['target'],
  options: runOptions,
  description: [
    'Prints one line per task (stop reason, runs, best score, cost, its config) and a summary (the ASR with its n, the ' +
      'completed tasks, and its 95% Wilson interval, or "not broken in N tasks by <attacker> (≤ X% at 95%)" when nothing ' +
      'broke; stop reasons, where the results went). The model key comes from $OPENAI_API_KEY and the target token from ' +
      '$REDSCOPE_TARGET_TOKEN only; neither is printed or written.',
    "The experiment's folder is named as superred names it (attacker label, target, claim, model, scope, budget). The " +
      'attacker label is derived from its whole configuration (payloads, model, prompt and temperature, the replayed run; ' +
      'recorded in the folder as attacker_config.json), so another attacker never resumes these results, and the same ' +
      `command again resumes them. The defaults are the browser's (${DEFAULT_MAX_RUNS_PER_TASK} runs per task, no cost cap, feedback on).`,
    'A success whose evidence (what the check matched) is text the attacker injected itself in that run is an echo: ' +
      'it is marked "echoed" in the task line and the results (echoes.json) and judged a failure, unless --count-echoes. ' +
      'A claim whose check matches its own goal text is named on stderr when it is read.',
    'Exit 0 once the threat model ran, whatever the attacks achieved; 2 for a bad option, claim file, scope tag, an ' +
      'unreachable target, or a folder that holds another attacker configuration under --attacker-label; 1 when results ' +
      'could not be written (run the same command again to resume).',
  ],
  examples: [
    [
      'template payloads against the demo assistant',
      'redscope run --target http://127.0.0.1:8801 --claim public/claims/assistant-exfiltration.json --scope inbox',
    ],
    [
      'an LLM attacker on a local OpenAI-compatible server, three runs per task',
      'OPENAI_API_KEY=... redscope run --target URL --claim claim.json --scope user --optimizer llm --model gpt-4o-mini --max-runs 3',
    ],
    [
      'replay the winning run of a task against a patched target',
      'redscope run --target URL --claim claim.json --scope inbox --optimizer replay --replay superred-results/EXP/tasks/00001__x',
    ],
    [
      "superred's own PAIR, served by redscope-bridge serve --optimizer pair_optimizer:PAIROptimizer (its model and key stay there)",
      `redscope run --target URL --scope user --optimizer-url http://127.0.0.1:8803 --optimizer-name PAIROptimizer --optimizer-kwargs '{"n_streams": 2}'`,
    ],
  ],
  load: async () => (await import('../commands/run')).runCommand,
})

export type RunOptions = typeof runOptions
