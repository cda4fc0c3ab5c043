import { defineCommand, type OptionsSpec } from '../command'

export const checkScopeOptions = {
  scope: { type: 'string', multiple: true, value: 'TAGS', description: 'tags the attacker reads and writes (a,b)' },
  'read-only': { type: 'string', multiple: true, value: 'TAGS', description: 'tags the attacker only reads (a,b)' },
} as const satisfies OptionsSpec

export const checkScope = defineCommand({
  name: 'check-scope',
  summary: "the designer's coded findings for a scope (antichain, overlaps, unknown tags); exit 1 on an error",
  synopsis: 'FOREST.json',
  positionals: { min: 1, max: 1 },
  options: checkScopeOptions,
  description: [
    'Prints the findings as a JSON array ([] when the scope is clean). Exit 0 when no finding is an error, 1 when one ' +
      'is, 2 for a bad forest file or option.',
  ],
  examples: [
    ['a user who reads the system prompt', 'redscope check-scope chatbot.json --scope user --read-only system_prompt'],
    ['in CI: fail the job on an invalid scope', 'redscope check-scope forest.json --scope inbox,drive > findings.json'],
  ],
  load: async () => (await import('../commands/checkScope')).checkScopeCommand,
})
