import { useState } from 'react'
import { docFromForest, EMPTY_DOC } from '../../core/model'
import { AGENTDOJO_FOREST, CHATBOT_FOREST } from '../../core/tags'
import { useDesigner } from '../../stores/designerStore'
import { newTagId } from '../../stores/ids'
import { notify } from '../../stores/noticeStore'
import { useWorkspace } from '../../stores/workspaceStore'
import { UNTITLED, workspaceService } from '../../stores/workspaceService'
import type { WorkspaceId, WorkspaceSummary } from '../../stores/workspaceTypes'
import { Menu } from '../../components/Menu'
import { plural } from '../../lib/plural'

const NEW_FROM = {
  empty: { label: 'Empty forest', name: UNTITLED, forest: null },
  chatbot: { label: 'Chatbot template', name: 'Chatbot', forest: CHATBOT_FOREST },
  agentdojo: { label: 'AgentDojo template', name: 'AgentDojo', forest: AGENTDOJO_FOREST },
} as const

const run = (p: Promise<unknown>) => p.catch((e: Error) => notify('error', e.message))

function WorkspaceItem({ w, active, liveCount }: { w: WorkspaceSummary; active: boolean; liveCount: number }) {
  const [renaming, setRenaming] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const open = (id: WorkspaceId) => run(workspaceService().open(id))
  return (
    <li className={`ws${active ? ' ws--active' : ''}`}>
      {renaming ? (
        <input
          className="input ws__rename"
          aria-label="Workspace name"
          defaultValue={w.name}
          autoFocus
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.currentTarget.blur()
            if (e.key === 'Escape') setRenaming(false)
          }}
          onBlur={(e) => {
            setRenaming(false)
            const v = e.target.value.trim()
            if (v && v !== w.name) void run(workspaceService().rename(w.id, v))
          }}
        />
      ) : (
        <button
          type="button"
          className="ws__open"
          aria-current={active ? 'true' : undefined}
          onClick={() => void open(w.id)}
          onDoubleClick={() => setRenaming(true)}
          title="Open (double-click to rename)"
        >
          <span className="ws__name" title={w.name}>
            {w.name}
          </span>
          <span className="ws__meta">{plural(active ? liveCount : w.tagCount, 'tag')}</span>
        </button>
      )}
      <span className="ws__actions">
        <button type="button" className="icon-btn" aria-label={`Rename ${w.name}`} title="Rename" onClick={() => setRenaming(true)}>
          ✎
        </button>
        {confirming ? (
          <button
            type="button"
            className="btn btn--danger btn--small"
            onClick={() => void run(workspaceService().remove(w.id))}
            onBlur={() => setConfirming(false)}
            autoFocus
          >
            Delete?
          </button>
        ) : (
          <button
            type="button"
            className="icon-btn"
            aria-label={`Delete ${w.name}`}
            title="Delete this workspace"
            onClick={() => setConfirming(true)}
          >
            ✕
          </button>
        )}
      </span>
    </li>
  )
}

/** The workspaces, each with its own forest and saved threat models; the open one is autosaved. */
export function WorkspaceSidebar() {
  const workspaces = useWorkspace((s) => s.workspaces)
  const activeId = useWorkspace((s) => s.activeId)
  const liveCount = useDesigner((s) => s.history.present.tags.length)
  const create = (key: keyof typeof NEW_FROM) => {
    const t = NEW_FROM[key]
    const doc = t.forest ? docFromForest(t.forest, newTagId) : EMPTY_DOC
    void run(workspaceService().create(t.name, doc))
  }
  return (
    <aside className="sidebar" aria-label="Workspaces">
      <h2 className="sidebar__title">Workspaces</h2>
      <ul className="ws-list">
        {workspaces.map((w) => (
          <WorkspaceItem key={w.id} w={w} active={w.id === activeId} liveCount={liveCount} />
        ))}
      </ul>
      <Menu label="+ New workspace" className="menu--block">
        {Object.entries(NEW_FROM).map(([key, t]) => (
          <button key={key} type="button" className="menu__item" onClick={() => create(key as keyof typeof NEW_FROM)}>
            {t.label}
          </button>
        ))}
      </Menu>
      <p className="sidebar__note">Every change is saved in this browser as you work.</p>
    </aside>
  )
}
