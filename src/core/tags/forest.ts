import { z } from 'zod'
import { LooseReferencesSchema, referenceProblem } from '../compliance/references'
import { SecurityDomain, SecurityDomainError } from './domain'
import { SecurityDomainTag } from './tag'

/**
 * A forest as plain data: the FOREST.json format and the shape of a target
 * manifest's `security_domain` list. Order is meaningful.
 */
export const ForestTagSchema = z.object({
  name: z.string().min(1, 'a tag name may not be empty'),
  // An omitted parent means a root: unambiguous, and kinder to hand-written files.
  parent: z
    .string()
    .nullable()
    .optional()
    .transform((p) => p ?? null),
  description: z.string().optional().default(''),
  /** Framework references (`LLM01`, `AML.T0051`, ...): optional, so a forest without them reads as before. */
  references: LooseReferencesSchema.optional(),
})
export const ForestSchema = z.object({ tags: z.array(ForestTagSchema) })

/**
 * A forest a person wrote or imported (FOREST.json, a manifest): its references are checked against the list
 * (src/core/compliance/frameworks.ts), each bad one named with its field. Results are read with the loose
 * ForestSchema, so a folder written by another version stays readable.
 */
export const CheckedForestSchema = ForestSchema.superRefine((forest, ctx) => checkForestReferences(forest.tags, ctx, ['tags']))

/** Adds an issue per unknown reference of a list of tags, at `path[i].references[j]`. */
export function checkForestReferences(
  tags: ReadonlyArray<{ references?: readonly string[] }>,
  ctx: z.RefinementCtx,
  path: PropertyKey[],
): void {
  tags.forEach((t, i) =>
    t.references?.forEach((id, j) => {
      const problem = referenceProblem(id)
      if (problem !== null) ctx.addIssue({ code: 'custom', path: [...path, i, 'references', j], message: problem })
    }),
  )
}

export type ForestTag = z.infer<typeof ForestTagSchema>
export type Forest = z.infer<typeof ForestSchema>

/**
 * Builds the SecurityDomain of a plain forest, reporting the same first
 * problem the reference would (duplicates first, then dangling parents, in
 * list order), plus a parent cycle, which plain data can express but
 * superred's objects cannot.
 */
export function buildDomain(forest: Forest): SecurityDomain {
  const byName = new Map<string, ForestTag>()
  for (const t of forest.tags) {
    if (byName.has(t.name)) throw new SecurityDomainError('duplicate_tag', t.name, `Duplicate tag name: '${t.name}'`)
    byName.set(t.name, t)
  }
  for (const t of forest.tags) {
    if (t.parent !== null && !byName.has(t.parent)) {
      throw new SecurityDomainError('parent_not_in_domain', t.name, `Tag '${t.name}' has parent '${t.parent}' which is not in the domain`)
    }
  }
  const built = new Map<string, SecurityDomainTag>()
  for (const start of forest.tags) {
    // Walk up to the first built ancestor, then build back down: iterative,
    // and any revisit on the way up is a cycle.
    const chain: ForestTag[] = []
    const onChain = new Set<string>()
    let cur: ForestTag | undefined = start
    while (cur && !built.has(cur.name)) {
      if (onChain.has(cur.name)) {
        const loop = [...chain.slice(chain.findIndex((c) => c.name === cur!.name)).map((c) => c.name), cur.name]
        throw new SecurityDomainError('parent_cycle', cur.name, `Tag '${cur.name}' is its own ancestor: ${loop.join(' → ')}`)
      }
      onChain.add(cur.name)
      chain.push(cur)
      cur = cur.parent === null ? undefined : byName.get(cur.parent)
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const t = chain[i]
      built.set(t.name, new SecurityDomainTag(t.name, t.parent === null ? null : built.get(t.parent)!))
    }
  }
  return new SecurityDomain(forest.tags.map((t) => built.get(t.name)!))
}

/** The plain forest of a domain, descriptions and references looked up by name (a tag without references has no field). */
export function forestOf(
  domain: SecurityDomain,
  descriptions: ReadonlyMap<string, string> = new Map(),
  references: ReadonlyMap<string, readonly string[]> = new Map(),
): Forest {
  return {
    tags: domain.tags.map((t) => {
      const refs = references.get(t.name)
      return {
        name: t.name,
        parent: t.parent?.name ?? null,
        description: descriptions.get(t.name) ?? '',
        ...(refs && refs.length > 0 ? { references: [...refs] } : {}),
      }
    }),
  }
}

/** Each tag's references by name (tags without any left out). */
export function referencesByTag(forest: {
  tags: ReadonlyArray<{ name: string; references?: readonly string[] }>
}): Map<string, readonly string[]> {
  return new Map(forest.tags.flatMap((t) => (t.references && t.references.length > 0 ? [[t.name, t.references] as const] : [])))
}

/** Why a value is not a forest, as `path: problem` lines (zod issues made readable). */
export function describeForestIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ')
}

/** `tags[3].name`, the way a person points at a field of a JSON file. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)'
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('')
}
