/**
 * Replacing the whole forest of the open workspace (a template, an import, a
 * target's forest) as one undoable edit. Tags whose names stay keep their ids,
 * so granted names stay granted and saved threat models keep pointing at
 * them; the saved threat models that lose tags are returned, to be said.
 */
import { docReplacingForest, lostGrants, type LostGrants } from '../core/model'
import type { Forest } from '../core/tags'
import { plural } from '../lib/plural'
import { designerStore, type DesignerState } from './designerStore'
import { newTagId } from './ids'
import { selectDoc } from './selectors'
import { workspaceStore, type WorkspaceState } from './workspaceStore'
import type { StoreApi } from 'zustand'

export interface OpenWorkspace {
  designer: StoreApi<DesignerState>
  workspaces: StoreApi<WorkspaceState>
}

export const APP_WORKSPACE: OpenWorkspace = { designer: designerStore, workspaces: workspaceStore }

export interface Replacement {
  /** The workspace whose forest was replaced. */
  workspace: string
  /** Its saved threat models that grant tags the new forest lacks, with those tags. */
  lost: LostGrants[]
}

export function replaceForest(
  forest: Forest,
  granted?: { scope: string[]; readOnly: string[] },
  open: OpenWorkspace = APP_WORKSPACE,
): Replacement {
  const s = open.designer.getState()
  const cur = selectDoc(s)
  const names = new Map(cur.tags.map((t) => [t.id, t.name]))
  const keep = granted ?? {
    scope: cur.scope.map((id) => names.get(id) ?? '').filter(Boolean),
    readOnly: cur.readOnly.map((id) => names.get(id) ?? '').filter(Boolean),
  }
  const next = docReplacingForest(cur, forest, newTagId, keep)
  const { name, models } = open.workspaces.getState()
  s.dispatch({ type: 'replaceDoc', doc: next })
  s.select([])
  return { workspace: name, lost: lostGrants(models, cur, next) }
}

/** What a replacement did to the saved threat models, in one sentence naming each and its tags ('' when nothing). */
export function lostSentence(lost: readonly LostGrants[]): string {
  if (lost.length === 0) return ''
  const each = lost.map((l) => `“${l.model}” loses ${l.tags.join(', ')}`).join('; ')
  return `${plural(lost.length, 'saved threat model')} ${lost.length === 1 ? 'grants' : 'grant'} tags the new forest lacks: ${each}.`
}
