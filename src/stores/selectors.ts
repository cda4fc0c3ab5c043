/**
 * Derived designer state, computed on read and memoized by input identity.
 * Components select one narrow value each (a tag's access, its findings), so a
 * click re-renders only the tags whose value changed.
 */
import {
  attackerReading,
  coverage,
  domainOfTags,
  forestFindings,
  scopeFindings,
  updatedCoverage,
  type Coverage,
  type DesignDoc,
  type DesignTag,
  type DocScopeFinding,
  type ForestFinding,
  type ScopePair,
  type TagId,
} from '../core/model'
import { countCombinations, subtreeCounts } from '../core/tags'
import type { DesignerState } from './designerStore'
import { memoizeOne } from './memo'

export const selectDoc = (s: DesignerState): DesignDoc => s.history.present
export const selectTags = (s: DesignerState): readonly DesignTag[] => s.history.present.tags

export const domainOf = memoizeOne(domainOfTags)

export const tagIndex = memoizeOne((tags: readonly DesignTag[]) => new Map(tags.map((t) => [t.id, t])))

let lastCoverage: { tags: readonly DesignTag[]; pair: ScopePair; coverage: Map<TagId, Coverage> } | null = null

/** Coverage of the current document; after a scope click, only the clicked tags' subtrees are walked again. */
export const coverageOf = memoizeOne((tags: readonly DesignTag[], scope: readonly TagId[], readOnly: readonly TagId[]) => {
  const pair = { scope, readOnly }
  const next = lastCoverage?.tags === tags ? updatedCoverage(tags, lastCoverage, pair) : coverage(tags, pair)
  lastCoverage = { tags, pair, coverage: next }
  return next
})

export const forestFindingsOf = memoizeOne(forestFindings)

export const scopeFindingsOf = memoizeOne((doc: DesignDoc) => scopeFindings(doc, doc, domainOf(doc.tags)))

export const readingOf = memoizeOne((tags: readonly DesignTag[], scope: readonly TagId[], readOnly: readonly TagId[]) =>
  attackerReading(tags, { scope, readOnly }, coverageOf(tags, scope, readOnly)),
)

export const countsOf = memoizeOne((tags: readonly DesignTag[]) => {
  const d = domainOf(tags)
  if ('error' in d) return null
  return { domain: d.domain, counts: subtreeCounts(d.domain), total: countCombinations(d.domain) }
})

/** A finding as shown beside a tag: the tag it is about shows the message, the others a pointer to it. */
export interface TagNote {
  key: string
  severity: 'error' | 'warning' | 'info'
  text: string
  /** True on the tag the finding is about; false on the other tags involved. */
  primary: boolean
  /** The name of the tag the finding is about. */
  about: string
  kind: 'forest' | 'scope'
}

const EMPTY: readonly TagNote[] = Object.freeze([])

export const notesByTag = memoizeOne((doc: DesignDoc): ReadonlyMap<TagId, readonly TagNote[]> => {
  const out = new Map<TagId, TagNote[]>()
  const names = tagIndex(doc.tags)
  const add = (id: TagId, note: TagNote) => {
    const list = out.get(id)
    if (list) list.push(note)
    else out.set(id, [note])
  }
  const place = (
    f: { tags?: TagId[]; tagIds?: TagId[]; severity: TagNote['severity']; message: string; code: string },
    kind: TagNote['kind'],
    i: number,
  ) => {
    const ids = f.tags ?? f.tagIds ?? []
    // Missing descriptions are advice for the inspector, not a callout on every new tag.
    if (f.code === 'missing_description') return
    ids.forEach((id, k) => {
      const about = names.get(ids[0])?.name ?? '?'
      add(id, {
        key: `${kind}-${f.code}-${i}-${k}`,
        severity: f.severity,
        kind,
        primary: k === 0,
        about,
        text: k === 0 ? f.message : `See ${about}: ${f.message}`,
      })
    })
  }
  forestFindingsOf(doc.tags).forEach((f: ForestFinding, i) => place(f, 'forest', i))
  scopeFindingsOf(doc).forEach((f: DocScopeFinding, i) => place(f, 'scope', i))
  return out
})

export function notesFor(doc: DesignDoc, id: TagId): readonly TagNote[] {
  return notesByTag(doc).get(id) ?? EMPTY
}

export function coverageFor(doc: DesignDoc, id: TagId): Coverage | undefined {
  return coverageOf(doc.tags, doc.scope, doc.readOnly).get(id)
}
