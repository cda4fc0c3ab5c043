import { defineCommand, type OptionsSpec } from '../command'
import { GATE_OPTIONS } from './gateOptions'

export const compareOptions = {
  json: { type: 'boolean', description: 'print the whole comparison as JSON instead of the table' },
  'threat-models': {
    type: 'string',
    value: 'FILE',
    description:
      'compare only these threat models, under their names: threat-models.json (exported from the designer) or any list `sweep --threat-models` reads',
  },
  ...GATE_OPTIONS,
} as const satisfies OptionsSpec

export const compare = defineCommand({
  name: 'compare',
  summary: 'two results compared (regressions, fixes, ASR changes, frontier changes); gates a CI pipeline with --fail-on, --junit, --sarif',
  synopsis: 'BASE HEAD',
  positionals: { min: 2, max: 2 },
  options: compareOptions,
  description: [
    "BASE and HEAD are each a results tree (superred's or redscope's, schema 4 or 5), a merged sweep, or a folder with " +
      "frontier.json (`redscope frontier`'s --out). Threat models are matched by target, claim, attacker (its label, " +
      "derived from the attacker's whole configuration) and grants (scope and read_only, in any order); tasks by goal " +
      '(with their configuration where a claim repeats a goal).',
    'Prints the counts and a table of what changed, regressions on top: held→breached (a regression), breached→held ' +
      '(a fix), only in BASE, only in HEAD; each changed ASR on both sides with its n and 95% interval, and the change ' +
      'with its own interval. Where both sides have frontier.json: the minimal winning threat models new in HEAD (a weaker ' +
      'attacker now wins) and those gone. --json prints the whole comparison.',
    'Exit 0, or 1 when a --fail-on rule matches (each reason on stderr); 2 for bad input (a folder that is not a results ' +
      'tree, a truncated or malformed file, results of different claims): one line naming the path and the problem, and ' +
      'nothing written. --junit and --sarif are written from HEAD, with what changed since BASE in their messages.',
  ],
  examples: [
    ['what changed since the last run', 'redscope compare baseline/ results/'],
    [
      'gate a pull request',
      'redscope compare baseline/ results/ --fail-on regression --junit redteam.xml --sarif redteam.sarif --sarif-location FOREST.json',
    ],
    [
      'the regressions as JSON',
      'redscope compare baseline/ results/ --json | jq \'.models[] | select(any(.tasks[]; .change == "regression"))\'',
    ],
  ],
  load: async () => (await import('../commands/compare')).compareCommand,
})
