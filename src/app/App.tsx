import { ReactFlowProvider } from '@xyflow/react'
import { use } from 'react'
import { DesignerToolbar } from '../features/designer/DesignerToolbar'
import { ForestCanvas } from '../features/designer/ForestCanvas'
import { ShortcutHelp } from '../features/designer/ShortcutHelp'
import { useDesignerKeys } from '../features/designer/useDesignerKeys'
import { WorkspaceSidebar } from '../features/workspaces/WorkspaceSidebar'
import { useWorkspace } from '../stores/workspaceStore'
import { designerReady } from './designerBoot'
import { Notices } from './Notices'
import { SidePanel } from './SidePanel'
import './designer.css'

function DesignerPage() {
  useDesignerKeys()
  const activeId = useWorkspace((s) => s.activeId)
  return (
    <div className="designer">
      <WorkspaceSidebar />
      <main className="designer__main">
        <DesignerToolbar />
        <div className="designer__canvas">
          {/* A workspace opens fitted to the view. */}
          <ForestCanvas key={activeId ?? ''} />
          <Notices />
          <ShortcutHelp />
        </div>
      </main>
      <SidePanel />
    </div>
  )
}

/** The designer section: workspaces, the forest canvas and its panels. Suspends until the workspaces are loaded. */
export function App() {
  use(designerReady())
  return (
    <ReactFlowProvider>
      <DesignerPage />
    </ReactFlowProvider>
  )
}
