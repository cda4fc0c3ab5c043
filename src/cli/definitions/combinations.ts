import { defineCommand, type OptionsSpec } from '../command'

export const combinationsOptions = {
  count: { type: 'boolean', description: 'print only the exact count (computed without listing them)' },
} as const satisfies OptionsSpec

export const combinations = defineCommand({
  name: 'combinations',
  summary: "every distinct threat model of a forest, in superred's order (or their count)",
  synopsis: 'FOREST.json',
  positionals: { min: 1, max: 1 },
  options: combinationsOptions,
  description: [
    "Prints a JSON array of tag-name arrays, the distinct combinations of FOREST.json in the order of superred's " +
      'distinct_combinations() (names sorted inside each). FOREST.json is {"tags": [{"name", "parent", "description"}]}; ' +
      'a missing or malformed file is one line on stderr and exit 2.',
  ],
  examples: [
    ['how many threat models the AgentDojo forest has', 'redscope combinations agentdojo.json --count'],
    ['the first ten', "redscope combinations forest.json | jq -c '.[:10][]'"],
  ],
  load: async () => (await import('../commands/combinations')).combinationsCommand,
})
