import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { buildReplay, coverageFor, type Grant, type Replay } from '../../../core/replay'
import { deriveAttackerView, type ExperimentRecord, type TaskRecord } from '../../../core/results'
import { useExperimentForest, type ExperimentForest } from '../forest/useExperimentForest'
import { experimentQuery } from '../queries/experiment'
import { taskQuery } from '../queries/task'
import { trajectoryQuery } from '../queries/trajectory'
import { taskDirOf, type RunRef } from '../paths'
import type { OpenSource } from '../sourcesStore'

export type RunReplayState =
  | { readonly status: 'loading'; readonly what: string }
  | { readonly status: 'error'; readonly title: string; readonly error: unknown }
  | {
      readonly status: 'ready'
      readonly replay: Replay
      readonly experiment: ExperimentRecord
      readonly task: TaskRecord
      readonly forest: ExperimentForest
      readonly grantFrom: 'attacker.json' | 'task.json'
    }

/**
 * Everything one run's viewer needs, each file read once through the query
 * cache: the experiment (forest), the task (grant, runs), the full
 * trajectory and, in older trees, the attacker's file. The replay, and in
 * newer trees the attacker's view, are derived, never stored.
 */
export function useRunReplay(source: OpenSource, src: string, ref: RunRef): RunReplayState {
  const taskDir = taskDirOf(ref.experiment, ref.task)
  const experiment = useQuery(experimentQuery(source, src, ref.experiment))
  const task = useQuery(taskQuery(source, src, taskDir))
  const full = useQuery(trajectoryQuery(source, src, taskDir, ref.run, 'full'))
  const attacker = useQuery(trajectoryQuery(source, src, taskDir, ref.run, 'attacker'))
  const forest = useExperimentForest(experiment.data, ref.experiment)

  const attackerFile = task.data?.attacker ?? null
  const taskFile = task.data?.task
  const scope = attackerFile?.scope ?? taskFile?.scope
  const readOnly = attackerFile?.read_only ?? taskFile?.read_only
  const built = useMemo((): { replay: Replay } | { error: unknown } | null => {
    if (!full.data || attacker.isPending || !experiment.data || scope === undefined || readOnly === undefined) return null
    const grant: Grant = { scope, readOnly }
    try {
      const coverage = coverageFor(forest.forest, grant)
      if (attacker.data) return { replay: buildReplay(full.data.trajectory, attacker.data.trajectory, coverage) }
      // A redscope tree stores what the attacker saw once: derived here with the engine's filter and the experiment's own forest.
      const own = experiment.data?.domain ?? null
      const derived = own === null ? null : deriveAttackerView(full.data.trajectory, own, grant, taskDir)
      return { replay: buildReplay(full.data.trajectory, derived, coverage, 'derived') }
    } catch (error) {
      return { error }
    }
  }, [full.data, attacker.data, attacker.isPending, scope, readOnly, forest.forest, experiment.data, taskDir])

  if (experiment.error) return { status: 'error', title: `Could not open the experiment ${ref.experiment}`, error: experiment.error }
  if (task.error) return { status: 'error', title: `Could not open the task ${ref.task}`, error: task.error }
  if (full.error) return { status: 'error', title: `Could not read run ${ref.run}`, error: full.error }
  if (attacker.error) return { status: 'error', title: `Could not read the attacker's view of run ${ref.run}`, error: attacker.error }
  if (full.data === null) {
    return {
      status: 'error',
      title: `Run ${ref.run} has no trajectory`,
      error: new Error(`${taskDir}/trajectories: no file for run ${ref.run}`),
    }
  }
  if (built && 'error' in built) return { status: 'error', title: 'The forest in use is not valid', error: built.error }
  if (!experiment.data || !task.data || !built) {
    return { status: 'loading', what: !full.data ? `run ${ref.run} of ${ref.task}` : ref.task }
  }
  return {
    status: 'ready',
    replay: built.replay,
    experiment: experiment.data,
    task: task.data,
    forest,
    grantFrom: attackerFile ? 'attacker.json' : 'task.json',
  }
}
