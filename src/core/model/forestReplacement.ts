/**
 * Replacing a document's whole forest (a template, an import, a target's
 * forest) without breaking what points into it: a tag whose name is in both
 * forests keeps its id, so a saved threat model that grants it still does
 * (and undo, which brings the old document back, finds every id it had). A
 * saved threat model that grants a tag the new forest lacks is named with
 * that tag (`lostGrants`), never silently left granting nothing.
 */
import type { Forest } from '../tags'
import { docFromForest, type DesignDoc, type ScopePair, type TagId } from './doc'

export function docReplacingForest(
  current: Pick<DesignDoc, 'tags'>,
  forest: Forest,
  newId: () => TagId,
  granted: { scope?: readonly string[]; readOnly?: readonly string[] } = {},
): DesignDoc {
  const kept = new Map<string, TagId>()
  // A duplicate name (allowed while editing, reported beside the tags) keeps its first tag's id.
  for (const t of current.tags) if (!kept.has(t.name)) kept.set(t.name, t.id)
  return docFromForest(forest, (name) => kept.get(name) ?? newId(), granted)
}

/** A saved threat model and the granted tags (names, forest order of the old forest) that a replacement removes. */
export interface LostGrants {
  model: string
  tags: string[]
}

/**
 * Which saved threat models lose which granted tags when `before` becomes
 * `after`. Only tags that `before` had count: an id already gone (a tag
 * deleted earlier) is not this replacement's doing.
 */
export function lostGrants(
  models: ReadonlyArray<ScopePair & { name: string }>,
  before: Pick<DesignDoc, 'tags'>,
  after: Pick<DesignDoc, 'tags'>,
): LostGrants[] {
  const still = new Set(after.tags.map((t) => t.id))
  const gone = before.tags.filter((t) => !still.has(t.id))
  if (gone.length === 0) return []
  return models.flatMap((m) => {
    const granted = new Set([...m.scope, ...m.readOnly])
    const tags = gone.filter((t) => granted.has(t.id)).map((t) => t.name)
    return tags.length > 0 ? [{ model: m.name, tags }] : []
  })
}
