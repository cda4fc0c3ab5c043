import { queryOptions, skipToken } from '@tanstack/react-query'
import { readTrajectory } from '../../../core/results'
import type { OpenSource } from '../sourcesStore'
import { resultsKeys } from '../../../queries/resultsKeys'

/**
 * One run's trajectory file: the full one, or the attacker file an older
 * redscope tree keeps beside it (run_NNNNN.attacker.json; null when absent:
 * the viewer then derives the view, see useRunReplay). Big files
 * are kept while in use only: gcTime is short so a 100k-event run does not
 * stay in memory after the viewer leaves it.
 */
export function trajectoryQuery(
  source: OpenSource | undefined,
  sourceKey: string,
  taskDir: string,
  run: number,
  view: 'full' | 'attacker',
) {
  return queryOptions({
    queryKey: resultsKeys.trajectory(sourceKey, taskDir, run, view),
    queryFn: source ? () => readTrajectory(source.storage, taskDir, run, view) : skipToken,
    gcTime: 30_000,
  })
}
