import type { DesignerView } from '../../workspace/designerView'
import { AttackerPanel } from './AttackerPanel'
import { ClaimPanel } from './ClaimPanel'
import { SettingsPanel } from './SettingsPanel'
import { TargetPanel } from './TargetPanel'

/** Steps 1-4, shared by a single run and a sweep. */
export function SetupColumn({ view }: { view: DesignerView }) {
  return (
    <aside className="rc-setup" aria-label="Run setup">
      <TargetPanel view={view} />
      <ClaimPanel />
      <AttackerPanel />
      <SettingsPanel />
    </aside>
  )
}
