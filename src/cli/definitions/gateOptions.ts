/** The gate's options, shared by compare, sweep and frontier (their code: ../gate.ts). Definitions only: --help loads no more. */
import type { OptionsSpec } from '../command'

export const GATE_OPTIONS = {
  'fail-on': {
    type: 'string',
    multiple: true,
    value: 'RULE',
    group: 'Gate',
    description:
      "exit 1 when RULE matches: regression (compare only: held→breached, or a minimal winning threat model new in HEAD), breach (any task breached) or asr>P (a threat model's ASR above P: 0.25 or 25%)",
  },
  junit: {
    type: 'string',
    value: 'FILE',
    group: 'Gate',
    description: 'write JUnit XML: a testcase per threat model × task, failing where it was breached',
  },
  sarif: {
    type: 'string',
    value: 'FILE',
    group: 'Gate',
    description: 'write SARIF 2.1.0: a result per breach, a rule per task of the claim',
  },
  'sarif-location': {
    type: 'string',
    value: 'PATH|URL',
    group: 'Gate',
    description:
      "where SARIF results point: the forest file in the repository (e.g. FOREST.json), else the target's URL (the default where known)",
  },
} as const satisfies OptionsSpec
