import { use } from 'react'
import { resultsKeys } from '../features/results/queries/keys'
import { resultsQueryClient } from '../features/results/queries/queryClient'
import { RESULTS_DB } from '../features/run-console/runner/resultsStorage'
import { onResultsChanged } from '../features/run-console/queries/queryClient'
import { RunSection } from '../features/run-console/RunSection'
import { designerReady } from './designerBoot'

// The viewer caches "this browser's runs" for good; a run that lands new results makes that cache stale.
onResultsChanged(() => void resultsQueryClient.invalidateQueries({ queryKey: resultsKeys.source(`idb:${RESULTS_DB}`) }))

/**
 * The run console section. It reads the designer's current workspace (forest,
 * scope, saved threat models), so it waits for the workspaces to load first.
 */
export function RunRoute() {
  use(designerReady())
  return <RunSection />
}
