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
    'whether it is complete, its attacker, target, claim and scope, the summary) and every task its manifest lists, ' +
    'skipped ones included, with the configuration each ran with. Read with the same reader as the browser.',
  ],
  examples: [
    ['every experiment of a superred run', 'redscope results superred-results'],
    ['the goals of the tasks that succeeded', "redscope results superred-results | jq '.experiments[].tasks[] | select(.success) | .goal'"],
  ],
  load: async () => (await import('../commands/results')).resultsCommand,
})
