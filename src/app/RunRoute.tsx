import { use } from 'react'
import { RunSection } from '../features/run-console/RunSection'
import { designerReady } from './designerBoot'

/**
 * The run console section. It reads the designer's current workspace (forest,
 * scope, saved threat models), so it waits for the workspaces to load first.
 */
export function RunRoute() {
  use(designerReady())
  return <RunSection />
}
