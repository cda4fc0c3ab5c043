/**
 * SARIF 2.1.0 of a results side: one result per breached task, under a rule
 * per task of the claim, with a fingerprint made of the threat model and the
 * task's goal only (so code scanning tracks one finding across runs and
 * closes it when it stops breaking), located at the forest file or the
 * target's URL.
 */
import { sha256Hex } from '../results'
import type { TaskChangeKind } from './compare'
import { modelLabel } from './gate'
import type { Side } from './side'

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'
export const FINGERPRINT_KEY = 'redscopeThreatModelTask/v1'

export interface SarifOptions {
  /** Where a finding points: a file of the repository (the forest, relative to its root) or the target's URL. */
  readonly location: string
  readonly changes?: ReadonlyMap<string, TaskChangeKind>
  readonly toolVersion?: string
}

/** The rule of one task of a claim: the claim's name and a digest of the task's key (its goal). */
export const ruleIdOf = (claim: string, taskKey: string) => `${claim}/${sha256Hex(taskKey).slice(0, 12)}`

/** Stable across runs, attackers' luck and result folders: the threat model's identity and the task's goal. */
export const fingerprintOf = (modelKey: string, taskKey: string) => sha256Hex(`${modelKey}\n${taskKey}`)

export function sarifLog(head: Side, options: SarifOptions) {
  const rules: Array<Record<string, unknown>> = []
  const ruleIndex = new Map<string, number>()
  const results: Array<Record<string, unknown>> = []
  for (const m of head.models) {
    for (const t of m.tasks) {
      const id = ruleIdOf(m.claim, t.key)
      if (!ruleIndex.has(id)) {
        ruleIndex.set(id, rules.length)
        rules.push({
          id,
          name: `${m.claim} task ${t.index}`,
          shortDescription: { text: `${m.claim}: ${t.key}` },
          fullDescription: { text: `An attacker achieves this goal of the claim ${m.claim}: ${t.key}` },
          defaultConfiguration: { level: 'error' },
          properties: { claim: m.claim, goal: t.goal, task_key: t.key },
        })
      }
      if (t.outcome !== 'breached') continue
      const change = options.changes?.get(`${m.key}\n${t.key}`)
      const label = modelLabel(m)
      results.push({
        ruleId: id,
        ruleIndex: ruleIndex.get(id)!,
        level: 'error',
        kind: 'fail',
        message: { text: `${label} breaches ${m.target}: ${t.key}${change === 'regression' ? ' (a regression: it held in BASE)' : ''}` },
        locations: [{ physicalLocation: { artifactLocation: { uri: options.location } } }],
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprintOf(m.key, t.key) },
        properties: {
          threat_model: { scope: m.scope, read_only: m.readOnly, name: m.name, attacker: m.attacker, target: m.target, claim: m.claim },
          task: { index: t.index, goal: t.goal, runs: t.runs },
          experiment: m.dir,
          ...(change ? { change } : {}),
        },
      })
    }
  }
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0' as const,
    runs: [
      {
        tool: { driver: { name: 'redscope', ...(options.toolVersion ? { version: options.toolVersion } : {}), rules } },
        results,
      },
    ],
  }
}
