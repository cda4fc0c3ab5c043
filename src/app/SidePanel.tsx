import { TagInspector } from '../features/designer/TagInspector'
import { ScopePanel } from '../features/scope-picker/ScopePanel'
import { ThreatModelsPanel } from '../features/scope-picker/ThreatModelsPanel'
import { useDesigner, type SidePanel as Panel } from '../stores/designerStore'

const TABS: Array<{ id: Panel; label: string }> = [
  { id: 'tag', label: 'Tag' },
  { id: 'scope', label: 'Scope' },
  { id: 'models', label: 'Threat models' },
]

/** The property panel beside the canvas, in three tabs. */
export function SidePanel() {
  const panel = useDesigner((s) => s.panel)
  const setPanel = useDesigner((s) => s.setPanel)
  return (
    <aside className="side-panel" aria-label="Details">
      <div className="tabs" role="tablist" aria-label="Details">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={panel === t.id}
            aria-controls={`panel-${t.id}`}
            className="tabs__tab"
            onClick={() => setPanel(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="side-panel__body" role="tabpanel" id={`panel-${panel}`} aria-labelledby={`tab-${panel}`}>
        {panel === 'tag' ? <TagInspector /> : panel === 'scope' ? <ScopePanel /> : <ThreatModelsPanel />}
      </div>
    </aside>
  )
}
