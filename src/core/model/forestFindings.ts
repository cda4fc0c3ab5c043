/**
 * Live validation of a forest: the reference's hard rules (superred refuses
 * the forest) and advice from the security-domains guide where a rule of
 * thumb can be checked mechanically. Each finding names the tags it concerns,
 * so the designer can show it beside them.
 */
import { childrenIndex, type DesignTag, type TagId } from './doc'

export type ForestFindingCode =
  | 'empty_name'
  | 'duplicate_name'
  | 'parent_missing'
  | 'name_whitespace'
  | 'persona_name'
  | 'readable_tag'
  | 'channel_nested'
  | 'missing_description'

export type ForestSeverity = 'error' | 'warning' | 'info'

export interface ForestFinding {
  code: ForestFindingCode
  severity: ForestSeverity
  /** The tag the finding is about first, then any others involved. */
  tags: TagId[]
  message: string
  /** The guide's principle (1-7) behind an advice, if any. */
  principle?: number
}

const SEVERITY: Record<ForestFindingCode, ForestSeverity> = {
  empty_name: 'error',
  duplicate_name: 'error',
  parent_missing: 'error',
  name_whitespace: 'warning',
  persona_name: 'warning',
  readable_tag: 'warning',
  channel_nested: 'info',
  missing_description: 'info',
}

/** Words that name who attacks rather than what can be touched (principle 1). */
const PERSONA_WORDS = [
  'attacker',
  'adversary',
  'hacker',
  'malicious',
  'evil',
  'rogue',
  'compromised',
  'insider',
  'intruder',
  'victim',
  'phisher',
  'scammer',
  'eve',
  'mallory',
  'trudy',
  'badactor',
  'threatactor',
  'bad',
  'hostile',
  'spy',
]
/** Suffixes that encode read-only access in a tag (principle 3 says: decide it in the scope). */
const READABLE = /(^|[_.\-\s])(readable|read_?only|ro|viewer|visible|view|read)$/i

function words(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

export function forestFindings(tags: readonly DesignTag[]): ForestFinding[] {
  const out: ForestFinding[] = []
  const add = (code: ForestFindingCode, ids: TagId[], message: string, principle?: number) =>
    out.push({ code, severity: SEVERITY[code], tags: ids, message, ...(principle ? { principle } : {}) })

  const byName = new Map<string, TagId[]>()
  for (const t of tags) byName.set(t.name, [...(byName.get(t.name) ?? []), t.id])
  const ids = new Map(tags.map((t) => [t.id, t]))
  const children = childrenIndex(tags)

  for (const t of tags) {
    if (t.name.trim() === '') {
      add('empty_name', [t.id], 'This tag has no name: superred needs one to list it in the domain.')
      continue
    }
    const same = byName.get(t.name)!
    if (same.length > 1) {
      // Each of the tags carries its own note: no need to point from one to the other.
      add(
        'duplicate_name',
        [t.id],
        `Duplicate tag name: '${t.name}'. superred refuses a domain with two tags of one name; rename one of them.`,
      )
    }
    if (t.parent !== null && !ids.has(t.parent)) {
      add('parent_missing', [t.id], `Tag '${t.name}' has a parent which is not in the domain.`)
    }
    if (t.name !== t.name.trim() || /\s/.test(t.name)) {
      add('name_whitespace', [t.id], `'${t.name}' contains spaces. Scopes and code refer to tags by name: snake_case is safer.`)
    }
    const w = words(t.name)
    const persona =
      w.find((x) => PERSONA_WORDS.includes(x)) ??
      (PERSONA_WORDS.some((p) => t.name.toLowerCase().replace(/[^a-z]/g, '') === p) ? t.name : undefined)
    if (persona) {
      add(
        'persona_name',
        [t.id],
        `'${t.name}' reads like an attacker persona. Name the capability it grants (what can be touched, e.g. user or system_prompt): the persona is a reading of a scope, not a tag.`,
        1,
      )
    }
    if (READABLE.test(t.name)) {
      add(
        'readable_tag',
        [t.id],
        `'${t.name}' encodes read access in a tag. Read-only is a scope decision: keep one tag per surface and grant it under read_only instead.`,
        3,
      )
    }
    const parent = t.parent === null ? undefined : ids.get(t.parent)
    if (parent && /^user($|_)/.test(t.name) && !/^user($|_)/.test(rootOf(t, ids).name)) {
      add(
        'channel_nested',
        [t.id, parent.id],
        `'${t.name}' sits under '${parent.name}'. If the user channel does not subsume or get subsumed by it, make it its own root: independent channels are independent trees.`,
        5,
      )
    }
    if (t.description.trim() === '') {
      const leaf = (children.get(t.id) ?? []).length === 0
      add(
        'missing_description',
        [t.id],
        `Describe the capability '${t.name}' grants${leaf ? '' : ' (and so everything under it)'}: the attacker reading of a scope is built from these descriptions.`,
      )
    }
  }
  return out
}

function rootOf(tag: DesignTag, ids: ReadonlyMap<TagId, DesignTag>): DesignTag {
  let cur = tag
  const seen = new Set<TagId>()
  while (cur.parent !== null && ids.has(cur.parent) && !seen.has(cur.id)) {
    seen.add(cur.id)
    cur = ids.get(cur.parent)!
  }
  return cur
}

/** Whether superred would refuse the forest outright. */
export function forestIsValid(findings: readonly ForestFinding[]): boolean {
  return !findings.some((f) => f.severity === 'error')
}
