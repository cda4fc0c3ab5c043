/**
 * What the run console reads from the workspaces (the designer's public
 * stores and service): one workspace's forest, its current scope and
 * read_only, and its saved threat models, all by tag name (the engine
 * matches names against the target's own tags). Read only: the console
 * never writes the designer's state.
 *
 * The console runs the workspace chosen on the Run page, pinned in its setup:
 * opening another workspace in the designer never changes what a run uses.
 * The designer's open workspace is read live (edits show at once); any other
 * is read from disk, where it cannot change until it is opened.
 */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { pairNames, toForest, type DesignDoc } from '../../../core/model'
import { buildDomain, type Forest, type SecurityDomain } from '../../../core/tags'
import { useDesigner } from '../../../stores/designerStore'
import { selectDoc } from '../../../stores/selectors'
import { workspaceService } from '../../../stores/workspaceService'
import { useWorkspace } from '../../../stores/workspaceStore'
import type { SavedModel, TargetRef, WorkspaceId, WorkspaceSummary } from '../../../stores/workspaceTypes'
import type { ThreatModelNames } from '../runner/buildRun'
import { setupActions, useSetup } from '../setup/setupStore'

export interface NamedModel extends ThreatModelNames {
  readonly id: string
  readonly name: string
}

export interface DesignerView {
  readonly workspaceId: string
  readonly workspace: string
  /** True when the workspace is the one open in the designer (its current scope is being edited there). */
  readonly open: boolean
  /** The workspace the setup names no longer exists: said on the page, never swapped silently. */
  readonly missing: string | null
  readonly loading: boolean
  readonly forest: Forest
  readonly domain: SecurityDomain | null
  /** Why the forest is not one superred would accept, when it is not. */
  readonly forestError: string | null
  readonly current: ThreatModelNames
  readonly saved: readonly NamedModel[]
  /** The target the workspace was imported from (the designer's Import ▸ Target URL or a manifest file), if any. */
  readonly target: TargetRef
}

const EMPTY: DesignDoc = { tags: [], scope: [], readOnly: [] }

function viewOf(id: string, name: string, open: boolean, doc: DesignDoc, models: readonly SavedModel[], target: TargetRef): DesignerView {
  const forest = toForest(doc)
  let domain: SecurityDomain | null = null
  let forestError: string | null = null
  try {
    domain = buildDomain(forest)
  } catch (e) {
    forestError = (e as Error).message
  }
  return {
    workspaceId: id,
    workspace: name,
    open,
    missing: null,
    loading: false,
    forest,
    domain,
    forestError,
    current: pairNames(doc, doc),
    saved: models.map((m) => ({ id: m.id, name: m.name, ...pairNames(doc, m) })),
    target,
  }
}

/** The workspace a run uses: the one the setup pins, else (first visit, or nothing pinned yet) the designer's open one. */
export function runWorkspaceId(pinned: string, activeId: string | null, workspaces: readonly WorkspaceSummary[]): string | null {
  if (pinned !== '' && workspaces.some((w) => w.id === pinned)) return pinned
  return activeId
}

export function useDesignerView(): DesignerView {
  const doc = useDesigner(selectDoc)
  const models = useWorkspace((s) => s.models)
  const openTarget = useWorkspace((s) => s.target)
  const openName = useWorkspace((s) => s.name)
  const activeId = useWorkspace((s) => s.activeId)
  const workspaces = useWorkspace((s) => s.workspaces)
  const pinned = useSetup((s) => s.threat.workspace)
  const id = runWorkspaceId(pinned, activeId, workspaces)
  const open = id !== null && id === activeId
  const summary = workspaces.find((w) => w.id === id)
  // Pin on first sight, so that opening another workspace in the designer later changes nothing here.
  useEffect(() => {
    if (pinned === '' && activeId !== null) setupActions().setThreat({ workspace: activeId })
  }, [pinned, activeId])
  const other = useQuery({
    queryKey: ['workspace', id, summary?.updatedAt ?? 0],
    queryFn: async () => (await workspaceService().read(id as WorkspaceId)) ?? null,
    enabled: id !== null && !open,
    staleTime: Infinity,
  })
  const missing = pinned !== '' && !workspaces.some((w) => w.id === pinned) ? pinned : null
  return useMemo(() => {
    const base =
      open || id === null
        ? viewOf(id ?? '', openName, true, doc, models, openTarget)
        : other.data
          ? viewOf(other.data.id, other.data.name, false, other.data.doc, other.data.models, other.data.target)
          : { ...viewOf(id, summary?.name ?? '', false, EMPTY, [], null), loading: true }
    return { ...base, missing }
  }, [open, id, openName, doc, models, openTarget, other.data, summary?.name, missing])
}

export type ThreatChoice = ThreatModelNames & { readonly id: string; readonly label: string; readonly name: string }

/**
 * The threat model a single run uses: the workspace's current scope ('designer') or a saved model by id.
 * Nothing chosen yet ('') means the current scope when it grants something, else the first saved model:
 * a first visit runs the guide's first attacker instead of failing on an empty scope.
 */
export function chosenModel(view: DesignerView, source: string): ThreatChoice | null {
  const current: ThreatChoice = {
    ...view.current,
    id: 'designer',
    name: view.open ? 'Current scope in the designer' : `Current scope of “${view.workspace}”`,
    label: view.open ? 'the designer’s current scope' : `the current scope of “${view.workspace}”`,
  }
  if (source === 'designer') return current
  if (source === '') {
    const first = view.saved[0]
    if (view.current.scope.length + view.current.readOnly.length > 0 || first === undefined) return current
    return { scope: first.scope, readOnly: first.readOnly, id: first.id, name: first.name, label: `saved threat model “${first.name}”` }
  }
  const m = view.saved.find((s) => s.id === source)
  return m ? { scope: m.scope, readOnly: m.readOnly, id: m.id, name: m.name, label: `saved threat model “${m.name}”` } : null
}
