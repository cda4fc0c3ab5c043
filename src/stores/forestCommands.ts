/**
 * Replacing the whole forest (a template, an import, a target's forest) as
 * one undoable edit. Granted names that still exist stay granted.
 */
import { docFromForest } from '../core/model'
import type { Forest } from '../core/tags'
import { designerStore } from './designerStore'
import { newTagId } from './ids'
import { selectDoc } from './selectors'

export function replaceForest(forest: Forest, granted?: { scope: string[]; readOnly: string[] }): void {
  const s = designerStore.getState()
  const cur = selectDoc(s)
  const names = new Map(cur.tags.map((t) => [t.id, t.name]))
  const keep = granted ?? {
    scope: cur.scope.map((id) => names.get(id) ?? '').filter(Boolean),
    readOnly: cur.readOnly.map((id) => names.get(id) ?? '').filter(Boolean),
  }
  s.dispatch({ type: 'replaceDoc', doc: docFromForest(forest, newTagId, keep) })
  s.select([])
}
