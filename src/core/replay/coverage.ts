import { buildDomain, type Forest, type SecurityDomain, type SecurityDomainTag } from '../tags'

/** What the attacker was granted, by tag name, as task.json records it. */
export interface Grant {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
}

/**
 * How a tag relates to a grant. `mode` says whether ancestry was checked
 * against a forest, or whether only exact names could be compared because no
 * forest is known (a plain superred tree): then a child of a granted tag looks
 * uncovered, and the viewer must say it is guessing.
 */
export interface Coverage {
  readonly mode: 'forest' | 'names-only'
  /** The tag in the scope (read & write) that covers `tag`, nearest first; null if none. */
  readonly writeBy: string | null
  /** The granted tag (scope first, then read_only) that makes `tag` visible; null if none. */
  readonly visibleBy: string | null
  /** Whether `visibleBy` comes from the scope or from read_only. */
  readonly visibleVia: 'scope' | 'read_only' | null
  /** True when a forest is known and does not list this tag. */
  readonly unknownTag: boolean
}

export interface CoverageModel {
  readonly mode: 'forest' | 'names-only'
  readonly grant: Grant
  /** The forest's ancestry of a tag, itself first; just [tag] in names-only mode. */
  lineage(tag: string): readonly string[]
  cover(tag: string | null): Coverage
  isVisible(tag: string | null): boolean
  isWritable(tag: string | null): boolean
}

const NONE_COVERAGE = (mode: CoverageModel['mode'], unknownTag: boolean): Coverage => ({
  mode,
  writeBy: null,
  visibleBy: null,
  visibleVia: null,
  unknownTag,
})

/**
 * Coverage with superred's rule (semantics §1–2): a granted tag covers itself
 * and its descendants; visibility = scope ∪ read_only, write = scope. Granted
 * names are resolved to the forest's own tag objects, so `includes` by
 * identity is exactly the reference's check.
 */
export function forestCoverage(domain: SecurityDomain, grant: Grant): CoverageModel {
  const resolve = (names: readonly string[]) => names.map((n) => domain.get(n)).filter((t): t is SecurityDomainTag => t !== undefined)
  const scope = resolve(grant.scope)
  const readOnly = resolve(grant.readOnly)
  const cache = new Map<string, Coverage>()
  const firstCover = (tags: readonly SecurityDomainTag[], target: SecurityDomainTag) => {
    // Nearest covering ancestor first: the most specific explanation.
    for (let node: SecurityDomainTag | null = target; node !== null; node = node.parent) {
      if (tags.includes(node)) return node.name
    }
    return null
  }
  const cover = (name: string | null): Coverage => {
    if (name === null) return NONE_COVERAGE('forest', false)
    const hit = cache.get(name)
    if (hit) return hit
    const tag = domain.get(name)
    let result: Coverage
    if (tag === undefined) {
      result = NONE_COVERAGE('forest', true)
    } else {
      const writeBy = firstCover(scope, tag)
      const readBy = writeBy === null ? firstCover(readOnly, tag) : null
      result = {
        mode: 'forest',
        writeBy,
        visibleBy: writeBy ?? readBy,
        visibleVia: writeBy !== null ? 'scope' : readBy !== null ? 'read_only' : null,
        unknownTag: false,
      }
    }
    cache.set(name, result)
    return result
  }
  return {
    mode: 'forest',
    grant,
    lineage(name) {
      const out: string[] = []
      for (let node = domain.get(name) ?? null; node !== null; node = node.parent) out.push(node.name)
      return out.length ? out : [name]
    },
    cover,
    isVisible: (name) => cover(name).visibleBy !== null,
    isWritable: (name) => cover(name).writeBy !== null,
  }
}

/**
 * Without a forest only names can be compared: a tag counts as covered only
 * when its own name is granted. A descendant of a granted tag is then wrongly
 * shown as hidden; the UI says so wherever this model is in use.
 */
export function namesOnlyCoverage(grant: Grant): CoverageModel {
  const scope = new Set(grant.scope)
  const readOnly = new Set(grant.readOnly)
  const cover = (name: string | null): Coverage => {
    if (name === null) return NONE_COVERAGE('names-only', false)
    const w = scope.has(name)
    const r = !w && readOnly.has(name)
    return {
      mode: 'names-only',
      writeBy: w ? name : null,
      visibleBy: w || r ? name : null,
      visibleVia: w ? 'scope' : r ? 'read_only' : null,
      unknownTag: false,
    }
  }
  return {
    mode: 'names-only',
    grant,
    lineage: (name) => [name],
    cover,
    isVisible: (name) => cover(name).visibleBy !== null,
    isWritable: (name) => cover(name).writeBy !== null,
  }
}

/** Forest coverage when a forest is known (and valid), else names only. */
export function coverageFor(forest: Forest | null, grant: Grant): CoverageModel {
  if (forest === null) return namesOnlyCoverage(grant)
  return forestCoverage(buildDomain(forest), grant)
}
