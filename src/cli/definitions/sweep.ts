import { defineCommand, type OptionsSpec } from '../command'
import { GATE_OPTIONS } from './gateOptions'
import { ATTACKER_LABEL_OPTION, ATTACKER_OPTIONS, BUDGET_OPTIONS, TARGET_OPTIONS } from './attackOptions'

export const DEFAULT_PARALLEL = 4

export const sweepOptions = {
  ...TARGET_OPTIONS,
  target: {
    type: 'string',
    multiple: true,
    value: 'URL',
    group: 'Target and claim',
    description: 'the target server; repeat for its replicas (shard I attacks the (I mod R)-th); its token from $REDSCOPE_TARGET_TOKEN',
  },
  forest: {
    type: 'string',
    value: 'FOREST.json',
    group: 'Threat models',
    description: "the forest to enumerate (default: the target's); its order fixes the indices",
  },
  all: { type: 'boolean', group: 'Threat models', description: 'every distinct combination but the empty one' },
  containing: {
    type: 'string',
    multiple: true,
    value: 'TAGS',
    group: 'Threat models',
    description: 'every combination holding all of these tags (a,b)',
  },
  indices: {
    type: 'string',
    value: 'RANGES',
    group: 'Threat models',
    description: "combination indices in superred's order: 1-100,205,300-",
  },
  'threat-models': {
    type: 'string',
    value: 'FILE',
    group: 'Threat models',
    description:
      'a JSON list of scopes ([["inbox"], ...]) or of {scope, read_only, name}, or threat-models.json exported from the designer (names kept)',
  },
  ...ATTACKER_OPTIONS,
  optimizer: { ...ATTACKER_OPTIONS.optimizer, description: 'template (default), llm or replay' },
  ...BUDGET_OPTIONS,
  concurrency: {
    ...BUDGET_OPTIONS.concurrency,
    description: "target sessions at once, shared by the threat models running together (default: the target's)",
  },
  parallel: { type: 'string', value: 'M', group: 'Budget', description: `threat models at once (default ${DEFAULT_PARALLEL})` },
  shard: {
    type: 'string',
    value: 'I/N',
    group: 'Shards',
    description: 'run shard I of N (from 0): the threat models at positions I, I+N, I+2N, ...',
  },
  'shard-from-env': {
    type: 'string',
    value: 'VAR',
    group: 'Shards',
    description: "read I from $VAR (an Indexed Job's JOB_COMPLETION_INDEX); with --shards",
  },
  shards: { type: 'string', value: 'N', group: 'Shards', description: 'how many shards there are, with --shard-from-env' },
  out: {
    type: 'string',
    value: 'DIR',
    group: 'Output',
    description: 'the results root (default ./superred-results), one per shard; a rerun resumes',
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

export const sweep = defineCommand({
  name: 'sweep',
  summary: 'many threat models against a live target, or one shard of them; results trees plus the sweep.json the viewer paints',
  synopsis: '',
  positionals: { min: 0, max: 0 },
  required: ['target'],
  options: sweepOptions,
  description: [
    "The run console's sweep on the headless engine: one superred results tree per threat model under --out, and " +
      'sweep.json at its root (the record the viewer paints). Choose the threat models with exactly one of --all, ' +
      '--containing, --indices or --threat-models; they are decoded by index, never enumerated.',
    'With --shard I/N (or --shard-from-env VAR --shards N) this worker runs shard I: N workers cover every threat model ' +
      'exactly once, whatever order they start in. Give each shard its own --out, then `redscope merge` them. Run the ' +
      "same command again after a stop and it resumes: finished tasks are kept (superred's rules), the rest rerun.",
    "Each experiment is named as `redscope run` names it: the attacker label is derived from the attacker's whole " +
      'configuration unless --attacker-label names it, so another attacker never resumes these results.',
    'Prints a line per threat model (its ASR with n, the completed tasks, and the 95% Wilson interval, or "not broken in ' +
      'N tasks by <attacker>" with the upper bound) and a summary with the pooled ASR. Exit 0 when every threat model finished with no task in error; 1 when ' +
      'a task ended in error, results could not be written or the sweep was stopped (run it again to resume); 2 for a bad ' +
      'option or file, an unreachable target, an --out that holds another sweep or shard, or a folder that holds another ' +
      'attacker configuration under --attacker-label.',
  ],
  examples: [
    [
      'every threat model of the demo assistant, in one process',
      'redscope sweep --target http://127.0.0.1:8801 --claim public/claims/assistant-exfiltration.json --all --out sweep',
    ],
    ['shard 2 of 4 (a CI matrix)', 'redscope sweep --target URL --claim claim.json --all --shard 2/4 --out results/shard-2'],
    [
      'a Kubernetes Indexed Job pod, against replica I mod 2',
      'redscope sweep --target http://t-0.t:8801 --target http://t-1.t:8801 --claim claim.json --containing inbox ' +
        '--shard-from-env JOB_COMPLETION_INDEX --shards 8 --out /results/shard-$JOB_COMPLETION_INDEX',
    ],
  ],
  load: async () => (await import('../commands/sweep')).sweepCommand,
})

export type SweepOptions = typeof sweepOptions
