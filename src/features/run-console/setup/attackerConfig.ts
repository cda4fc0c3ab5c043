/**
 * The console's attacker as results record it (src/attackers/attackerConfigs.ts): the same JSON the CLI records
 * for the same attacker, so both derive the same label (`template-3f2a9c1b`) and land in the same folder. The
 * attacker panel shows the label before a run; buildRun gives the Controller the configuration.
 */
import { checkNumber, RULES } from './numbers'
import { humanAttackerConfig, llmAttackerConfig, replayAttackerConfig, templateAttackerConfig, type RecordedRun } from '../../../attackers'
import { joinPath, runFileName, type AttackerConfig } from '../../../core/results'
import type { Setup } from './setupTypes'

/** The payload texts the template attacker will use: ticked and not blank, in table order. */
export const tickedTemplates = (a: Setup['attacker']) => a.templates.filter((t) => t.on && t.text.trim() !== '').map((t) => t.text)

/** Where a replayed run is read from, as a path in the results tree (what `redscope run --replay` would be given). */
export const replaySource = (replay: NonNullable<Setup['attacker']['replay']>) =>
  joinPath(replay.taskDir, 'trajectories', runFileName(replay.run))

/**
 * The configuration, or null when it cannot be known yet: no payload ticked, no model named, or a replay whose
 * recorded run (`replayed`) has not been read.
 */
export function setupAttackerConfig(setup: Pick<Setup, 'attacker' | 'threat'>, replayed: RecordedRun | null = null): AttackerConfig | null {
  const a = setup.attacker
  switch (a.kind) {
    case 'template': {
      const templates = tickedTemplates(a)
      return templates.length === 0 ? null : templateAttackerConfig({ templates, injectOn: a.injectOn })
    }
    case 'llm': {
      const e = setup.threat.attackerLlm
      return e.model.trim() === ''
        ? null
        : llmAttackerConfig({
            model: e.model.trim(),
            apiBase: e.baseURL.trim() || null,
            injectOn: a.llmInjectOn,
            ...(checkNumber(a.llmMaxTurns, RULES.maxTurns).value === null
              ? {}
              : { maxTurns: checkNumber(a.llmMaxTurns, RULES.maxTurns).value! }),
          })
    }
    case 'replay':
      return a.replay === null || replayed === null ? null : replayAttackerConfig(replayed, replaySource(a.replay))
    case 'human':
      return humanAttackerConfig()
    case 'served':
      // Known once the server is asked (its optimizer's module and version enter it): buildRun connects, then records it.
      return null
  }
}
