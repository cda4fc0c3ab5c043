/** This browser's results (IndexedDB, superred's format) and sweep records, for the results list, replay and sweeps. */
import { queryOptions } from '@tanstack/react-query'
import { listExperiments, readTasks } from '../../../core/results'
import { resultsStorage } from '../../../lib/browserResults'
import { listSweeps, readSweep } from '../../../lib/sweepRecords'
import { runKeys } from '../../../queries/runKeys'

export const experimentsQuery = () =>
  queryOptions({
    queryKey: runKeys.experiments,
    queryFn: () => listExperiments(resultsStorage()),
  })

export const tasksQuery = (dir: string) =>
  queryOptions({
    queryKey: runKeys.tasks(dir),
    queryFn: () => readTasks(resultsStorage(), dir),
  })

export const sweepsQuery = () => queryOptions({ queryKey: runKeys.sweeps, queryFn: listSweeps })

export const sweepQuery = (id: string) => queryOptions({ queryKey: runKeys.sweep(id), queryFn: () => readSweep(id) })
