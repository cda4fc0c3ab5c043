/**
 * Framework references (`LLM01`, `T2`, `AML.T0051`, `MEASURE 2.7`) as they are written in FOREST.json, the claim
 * file and a target's manifest: a list of ids, each checked against the one list (frameworks.ts). A bad id is
 * refused with its name, the list's file and the field it was in (`tags[2].references[0]`).
 */
import { z } from 'zod'
import { FRAMEWORKS, FRAMEWORKS_FILE, type Framework } from './frameworks'

export interface KnownReference {
  readonly id: string
  readonly title: string
  readonly framework: Framework
}

const BY_ID: ReadonlyMap<string, KnownReference> = new Map(
  FRAMEWORKS.flatMap((framework) => framework.entries.map(([id, title]) => [id, { id, title, framework }] as const)),
)

/** The entry of a known id; undefined for an id not in the list. */
export function lookupReference(id: string): KnownReference | undefined {
  return BY_ID.get(id)
}

/** Every accepted id, in the list's order (frameworks, then their entries). */
export function allReferenceIds(): string[] {
  return [...BY_ID.keys()]
}

/** Why an id is refused, or null when it is known. Names the id and the file of the list. */
export function referenceProblem(id: string): string | null {
  if (BY_ID.has(id)) return null
  const upper = id.trim().toUpperCase().replace(/\s+/g, ' ')
  const near = BY_ID.has(upper) ? ` (did you mean '${upper}'?)` : ''
  return (
    `unknown framework reference '${id}'${near}: not in the list of ${FRAMEWORKS_FILE} ` +
    '(OWASP LLM01..LLM10, OWASP Agentic T1..T15, MITRE ATLAS AML.Txxxx, NIST AI RMF GOVERN/MAP/MEASURE/MANAGE [n[.n]])'
  )
}

/** The wire shape, unchecked: what a results reader accepts (a list from another version stays readable). */
export const LooseReferencesSchema = z.array(z.string())

/** The checked shape: each id known, duplicates dropped (order kept). */
export const ReferencesSchema = z
  .array(z.string({ error: 'a reference is a string such as "LLM01"' }))
  .superRefine((ids, ctx) => {
    ids.forEach((id, i) => {
      const problem = referenceProblem(id)
      if (problem !== null) ctx.addIssue({ code: 'custom', path: [i], message: problem })
    })
  })
  .transform((ids) => [...new Set(ids)])

/**
 * One checked id, for wire schemas (a target's manifest): zod names a bad id in words, and the generated JSON
 * Schema lists every accepted id as an enum, so a Python server is checked against the same list.
 */
export const ReferenceIdSchema = z
  .string()
  .superRefine((id, ctx) => {
    const problem = referenceProblem(id)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({ enum: allReferenceIds() })

/** Checks a list typed by a person (the inspector): the ids, or the first problem. Comma- or newline-separated. */
export function parseReferenceList(text: string): { ids: string[] } | { error: string } {
  const ids = [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim().replace(/\s+/g, ' '))
        .filter((s) => s !== ''),
    ),
  ]
  for (const id of ids) {
    const problem = referenceProblem(id)
    if (problem !== null) return { error: problem }
  }
  return { ids }
}

/** The ids of one list grouped by framework, in the list's order; unknown ids (another version's) last. */
export function sortReferences(ids: Iterable<string>): string[] {
  const order = new Map(allReferenceIds().map((id, i) => [id, i]))
  return [...new Set(ids)].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * Tags' references from several sources (a target's manifest, then the user's own forest): a later source that
 * maps a tag replaces the earlier one's list for that tag, so the user's forest has the last word.
 */
export function mergeTagReferences(...sources: ReadonlyArray<ReadonlyMap<string, readonly string[]>>): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>()
  for (const source of sources) for (const [tag, ids] of source) if (ids.length > 0) out.set(tag, ids)
  return out
}
