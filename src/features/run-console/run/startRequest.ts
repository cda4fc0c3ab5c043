/** Turns the console's current setup into a run request (read at click time, never mirrored into state). */
import { buildRun, type ThreatModelNames } from '../runner/buildRun'
import type { RunRequest } from '../runner/runner'
import type { SweepRecord } from '../../../lib/sweepRecords'
import type { Forest } from '../../../core/tags'
import { pageFetch } from '../../../queries/targetManifest'
import { numberOrThrow, RULES } from '../setup/numbers'
import { currentSecrets } from '../setup/secretsStore'
import { demoTitle } from '../setup/demoModel'
import { useSetup } from '../setup/setupStore'
import { plural } from '../../../lib/plural'
import { livePaceMs } from '../runner/livePace'

export function targetTitle(): string {
  const t = useSetup.getState().target
  return t.kind === 'demo' ? demoTitle(t) : t.kind === 'http' ? t.httpUrl : t.kind === 'openai' ? `${t.openai.model} chat` : 'HTTP endpoint'
}

/**
 * `model.name` and `workspace` name the threat model in the run's title, so the live view says what it runs.
 * `watched`: a run people follow in the live view, which paces a demo target (livePace.ts); a frontier search's
 * runs are not.
 */
export function singleRequest(
  forest: Forest,
  model: ThreatModelNames & { readonly name?: string },
  workspace?: string,
  watched = false,
): RunRequest {
  const setup = useSetup.getState()
  const which = model.name ? `: “${model.name}”${workspace ? ` of “${workspace}”` : ''}` : ''
  return {
    kind: 'single',
    concurrency: 1,
    title: `${setup.claim.name || 'claim'} against ${targetTitle()}${which}`,
    build: (signal) =>
      buildRun(setup, currentSecrets(), forest, [model], {
        fetch: pageFetch,
        origin: location.origin,
        signal,
        paceMs: watched ? livePaceMs() : 0,
      }),
  }
}

/**
 * Runs `repeats` (2, 3...; 1 is the first) of one threat model side by side, each its own experiment (buildRun's
 * repeat label): a batch of the frontier's sequential test. They share the target's capacity as a sweep's models do.
 */
export function repeatsRequest(forest: Forest, model: ThreatModelNames, repeats: readonly number[]): RunRequest {
  const setup = useSetup.getState()
  const parallel = repeats.length
  return {
    kind: 'single',
    concurrency: parallel,
    title: `${setup.claim.name || 'claim'} against ${targetTitle()}: ${plural(parallel, 'run')} of one threat model (${repeats.length === 1 ? `run ${repeats[0]}` : `runs ${repeats[0]}-${repeats[repeats.length - 1]}`})`,
    build: (signal) =>
      buildRun(
        setup,
        currentSecrets(),
        forest,
        repeats.map((repeat) => ({ ...model, repeat })),
        { fetch: pageFetch, origin: location.origin, signal, parallel },
      ),
  }
}

/** `index` is the model's combination index, or null for a saved threat model that is not one (it grants read-only tags...). */
export function sweepRequest(forest: Forest, models: ReadonlyArray<ThreatModelNames & { index: bigint | null }>): RunRequest {
  const setup = useSetup.getState()
  const title = `Sweep of ${plural(models.length, 'threat model')}: ${setup.claim.name || 'claim'} against ${targetTitle()}`
  const parallel = Math.min(models.length, numberOrThrow(setup.threat.parallelModels, RULES.parallelModels) ?? 1)
  return {
    kind: 'sweep',
    title,
    concurrency: parallel,
    build: (signal) => buildRun(setup, currentSecrets(), forest, models, { fetch: pageFetch, origin: location.origin, signal, parallel }),
    sweep: (run): SweepRecord => ({
      v: 1,
      id: `sweep-${Date.now().toString(36)}`,
      createdAt: Date.now(),
      title,
      target: run.target.label,
      claim: setup.claim.name,
      attacker: run.controllers[0].meta(null).attacker,
      forest,
      models: run.controllers.map((c, i) => ({
        dir: c.label,
        index: models[i].index?.toString() ?? '',
        scope: [...models[i].scope],
        readOnly: [...models[i].readOnly],
        ...(models[i].savedName ? { name: models[i].savedName } : {}),
      })),
    }),
  }
}
