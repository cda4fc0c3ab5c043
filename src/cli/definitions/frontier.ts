import { defineCommand, type OptionsSpec } from '../command'
import { GATE_OPTIONS } from './gateOptions'
import { ATTACKER_LABEL_OPTION, ATTACKER_OPTIONS, BUDGET_OPTIONS, TARGET_OPTIONS } from './attackOptions'

export const frontierOptions = {
  ...TARGET_OPTIONS,
  'per-task': { type: 'boolean', group: 'Search', description: "each task's frontier too, not only the claim's (evaluations are shared)" },
  repeat: {
    type: 'string',
    value: 'N',
    group: 'Search',
    description: 'run each evaluated threat model N times; the majority decides (default 1)',
  },
  confidence: {
    type: 'string',
    value: 'C',
    group: 'Noisy target',
    description:
      'decide each threat model by a sequential test on repeated runs instead (e.g. 0.95): each decision is wrong with probability at most 1 - C, however often it is looked at',
  },
  threshold: {
    type: 'string',
    value: 'P',
    group: 'Noisy target',
    description:
      'with --confidence: the success rate a threat model must clear to win (default 0.5); it loses when the rate is shown below P',
  },
  'max-repeats': {
    type: 'string',
    value: 'N',
    group: 'Noisy target',
    description:
      "with --confidence: runs per threat model at most, after which it stays undecided (default 100); repeats run concurrently up to the target's capacity",
  },
  'budget-runs': {
    type: 'string',
    value: 'N',
    group: 'Search',
    description: 'at most N Controller runs in all (evaluations × repeat), resumed ones included',
  },
  'read-only': {
    type: 'boolean',
    group: 'Search',
    description: 'search read-only grants too (per tag: none < read only < read & write); the default searches scopes only',
  },
  seed: {
    type: 'string',
    value: 'low|high',
    group: 'Search',
    description: 'where each probe starts: the least (default) or the most an undecided attacker holds',
  },
  shard: {
    type: 'string',
    value: 'I/N',
    group: 'Shards',
    description:
      'with --per-task: search shard I of N (from 0), the tasks i (from 0) with i mod N = I; merge the shards with `redscope merge`',
  },
  'shard-from-env': {
    type: 'string',
    value: 'VAR',
    group: 'Shards',
    description: "read I from $VAR (an Indexed Job's JOB_COMPLETION_INDEX); with --shards",
  },
  shards: { type: 'string', value: 'N', group: 'Shards', description: 'how many shards there are, with --shard-from-env' },
  ...ATTACKER_OPTIONS,
  optimizer: { ...ATTACKER_OPTIONS.optimizer, description: 'template (default), llm or replay' },
  ...BUDGET_OPTIONS,
  out: {
    type: 'string',
    value: 'DIR',
    group: 'Output',
    description: 'where the results trees and frontier.json go (default ./superred-frontier); a rerun resumes',
  },
  'attacker-label': ATTACKER_LABEL_OPTION,
  'target-label': {
    type: 'string',
    value: 'L',
    group: 'Output',
    description: "the target's name in the slugs (default: its manifest's name)",
  },
  'claim-label': {
    type: 'string',
    value: 'L',
    group: 'Output',
    description: "the claim's name in the slugs (default: the claim file's name)",
  },
  ...GATE_OPTIONS,
} as const satisfies OptionsSpec

export const frontier = defineCommand({
  name: 'frontier',
  summary: 'the weakest attackers that win: minimal winning and maximal losing threat models, without sweeping them all',
  synopsis: '',
  positionals: { min: 0, max: 0 },
  required: ['target'],
  options: frontierOptions,
  description: [
    "Searches the target's distinct threat models in the capability order (a grant covers its subtree): a threat model " +
      'above a win wins and one below a loss loses, so only the threat models that decide something are run. Writes a ' +
      'superred results tree per evaluated threat model under --out and DIR/frontier.json: the minimal wins and maximal ' +
      'losses of the claim (and of each task with --per-task), how many were evaluated of how many, and every ' +
      'contradiction seen (a wider threat model that lost where a narrower one won). It prints the answer: the weakest ' +
      'attackers that broke the claim and the widest that did not in the runs made, each with those runs ("not broken in ' +
      'N runs by <attacker>", never "safe"). `redscope view DIR` shows the same answer painted. See docs/frontier.md.',
    'Run the same command again after a stop and it resumes from frontier.json and the finished experiments; an ' +
      'experiment of another attacker is never read back (the attacker label is derived from its whole configuration, ' +
      'as in `redscope run`).',
    'With --per-task --shard I/N (or --shard-from-env VAR --shards N) this worker searches the frontiers of its tasks ' +
      'only (task i goes to shard i mod N, counting from 0); give each shard its own --out, then `redscope merge` them: ' +
      "one results tree and one frontier.json whose claim frontier is computed from every task's.",
    'On a noisy target (an LLM), --confidence C decides each evaluated threat model by a sequential test on repeated ' +
      'runs of the claim: it wins once the lower end of a confidence sequence for its success rate clears --threshold P, ' +
      'loses once the upper end falls below P, and stays undecided after --max-repeats N runs. Each decision is wrong ' +
      'with probability at most 1 - C; frontier.json gives every evaluated threat model its runs, wins, interval and ' +
      'decision, lists the undecided ones and any contradiction with the runs behind them, and says what the whole answer ' +
      'guarantees and what it cost in runs. Use --max-runs 1 so that one run of the claim is one try. See docs/frontier.md.',
    'Exit 0 when the frontiers account for every threat model and no contradiction was seen; 1 when the budget or a ' +
      'stop cut the search short, a task ended in error, contradictions were found, or a threat model stayed undecided; ' +
      '2 for a bad option or file, an unreachable target, an --out that holds another search, or a folder that holds ' +
      'another attacker configuration under --attacker-label.',
  ],
  examples: [
    [
      'the weakest attackers that exfiltrate from the demo assistant',
      'redscope frontier --target http://127.0.0.1:8801 --claim public/claims/assistant-exfiltration.json --out frontier',
    ],
    [
      'per task, a noisy LLM attacker run 3 times per threat model, at most 300 runs',
      'redscope frontier --target URL --claim claim.json --optimizer llm --model gpt-4o-mini --per-task --repeat 3 --budget-runs 300 --out f',
    ],
    [
      'a noisy target: each threat model run until a 95% confidence sequence puts its rate above or below 0.5, at most 100 times',
      'redscope frontier --target URL --claim claim.json --max-runs 1 --confidence 0.95 --max-repeats 100 --threshold 0.5 --out f',
    ],
    [
      'shard 1 of 2 of a per-task search, then the merge',
      'redscope frontier --target URL --claim claim.json --per-task --shard 1/2 --out f/shard-1 && redscope merge f/shard-0 f/shard-1 --out f/merged',
    ],
  ],
  load: async () => (await import('../commands/frontier')).frontierCommand,
})

export type FrontierOptions = typeof frontierOptions
