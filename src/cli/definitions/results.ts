import { defineCommand, type OptionsSpec } from '../command'

export const resultsOptions = {} as const satisfies OptionsSpec

export const results = defineCommand({
  name: 'results',
  summary: "a JSON summary of a results tree (superred's or redscope's), every task included",
  synopsis: 'DIR',
  positionals: { min: 1, max: 1 },
  options: resultsOptions,
  description: [
    'DIR is a results root (with experiments.json) or one experiment folder. Prints each experiment (status, ' +
      'whether it is complete, its attacker, target, claim and scope, the name it was saved under in the designer as ' +
      'threat_model_name, null when none, the summary) and every task its manifest lists, ' +
      'skipped ones included, with the configuration each ran with. Read with the same reader as the browser.',
    "Beside superred's summary, `verdict` gives the ASR's n (completed tasks), its 95% Wilson interval (`wilson_95`) and " +
      'the words redscope shows everywhere; a rate where nothing broke reads "not broken in N tasks by <attacker> (≤ X% at 95%)", ' +
      'never a bare 0%. A task that held has its own `verdict` over its runs (the bound of its per-run success rate); ' +
      "a sweep's tree also has the pooled `sweep.verdict`.",
    "`cost` (the root's, each experiment's and each task's) says what superred's `cost` cannot: calls to a model with no " +
      'known price count $0 there, so `cost.unpriced` gives their calls and tokens and `cost.words` reads "unpriced (…)" or ' +
      '"$0.0123 + unpriced (…)", never a $0 read as measured. Each task\'s `run_ends` says why each run ended (the target ' +
      'finished, the attacker declined, its turn limit, the time cap, an error), where redscope recorded it.',
  ],
  examples: [
    ['every experiment of a superred run', 'redscope results superred-results'],
    ['the goals of the tasks that succeeded', "redscope results superred-results | jq '.experiments[].tasks[] | select(.success) | .goal'"],
    [
      "each experiment's ASR with its n and 95% interval",
      'redscope results superred-results | jq -r \'.experiments[] | .dir + ": " + .verdict.words\'',
    ],
  ],
  load: async () => (await import('../commands/results')).resultsCommand,
})
