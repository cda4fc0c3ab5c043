import { defineCommand, type OptionsSpec } from '../command'

export const mergeOptions = {
  out: { type: 'string', value: 'DIR', description: 'the merged tree; if it holds an earlier merge, that is merged in too' },
  'allow-incomplete': { type: 'boolean', description: 'exit 0 even when shards or threat models are missing (they are still named)' },
} as const satisfies OptionsSpec

export const merge = defineCommand({
  name: 'merge',
  summary:
    "one results tree from a sweep's or a frontier search's shards (or any results trees): experiments, experiments.json, sweep.json or frontier.json",
  synopsis: 'DIR...',
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  required: ['out'],
  options: mergeOptions,
  description: [
    'Copies every experiment folder into --out (hard links on one filesystem), writes experiments.json with every ' +
      "finished experiment's row, and one sweep.json listing every shard's threat models, which the viewer paints. " +
      'Everything is read and checked before anything is written. The order of the folders does not matter, and ' +
      'merging again (a shard retried, --out given among the inputs) gives the same tree.',
    'Shards of `redscope frontier --per-task --shard I/N` merge into one tree (repeat-k trees too) and one frontier.json: ' +
      "every task's frontier from its shard, the claim's computed from them (minimal wins: the least of the tasks'; maximal " +
      'losses: the greatest meets of one maximal loss per task), every evaluation once. See docs/frontier.md.',
    'Refuses, naming the folders and the field, trees of different sweeps (target, claim, attacker, selection, ' +
      'settings, number of shards) and two copies of an experiment that disagree about an outcome. Copies that agree ' +
      'are merged once.',
    'Exit 0 when the sweep is complete; 1 when shards or threat models are missing or unfinished (named on stderr; ' +
      '--allow-incomplete makes that 0); 2 for a refusal or a folder that is not a results tree (nothing written).',
  ],
  examples: [
    ['the four shards of a sweep', 'redscope merge results/shard-0 results/shard-1 results/shard-2 results/shard-3 --out results/merged'],
    ['again after shard 2 was rerun: the same tree, with shard 2 finished', 'redscope merge results/shard-* --out results/merged'],
  ],
  load: async () => (await import('../commands/merge')).mergeCommand,
})
