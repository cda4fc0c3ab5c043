/**
 * The summary by framework that reports, the static bundle and the finding export show: for each reference,
 * the threat models under which a task carrying it was breached and those under which it held, with how many
 * runs. Derived at read time from what the results already hold (the forest of domain.json with its tags'
 * references, each task's references in task_configs.json), never stored beside them.
 *
 * A reference is in play for one threat model and one task when the task (or its claim) carries it, or when the
 * threat model grants a tag that carries it (a granted tag covers its descendants, so theirs count too). Words
 * claim no more than was measured: a reference that held is "not broken in N runs", never "safe".
 */
import { FRAMEWORKS, type Framework } from './frameworks'
import { lookupReference, sortReferences } from './references'

/** One task of one threat model, as the results record it. */
export interface ComplianceCell {
  /** The threat model in words (its saved name, else its scope). */
  readonly threatModel: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  /** The task's references, its claim's included. */
  readonly taskReferences: readonly string[]
  readonly breached: boolean
  /** Runs the task made (0: it did not run, and says nothing). */
  readonly runs: number
}

export interface ThreatModelOutcome {
  readonly threatModel: string
  readonly tasks: number
  readonly breachedTasks: number
  readonly runs: number
}

export interface ReferenceVerdict {
  readonly id: string
  /** '' for an id not in this version's list (results written by another version). */
  readonly title: string
  readonly breached: readonly ThreatModelOutcome[]
  readonly held: readonly ThreatModelOutcome[]
}

export interface FrameworkSummary {
  /** null: ids this version's list does not know. */
  readonly framework: Pick<Framework, 'id' | 'title' | 'source' | 'taken'> | null
  readonly references: readonly ReferenceVerdict[]
}

export interface ComplianceSummary {
  readonly frameworks: readonly FrameworkSummary[]
  /** References on the forest's tags that no threat model of these results granted nor any task carried. */
  readonly notExercised: readonly string[]
}

interface ForestLike {
  readonly tags: ReadonlyArray<{ readonly name: string; readonly parent: string | null; readonly references?: readonly string[] }>
}

/** The references a grant brings into play: those of the granted tags and of everything under them. */
function grantedReferences(forest: ForestLike | null, granted: readonly string[]): Set<string> {
  const out = new Set<string>()
  if (forest === null || granted.length === 0) return out
  const children = new Map<string, string[]>()
  for (const t of forest.tags) if (t.parent !== null) children.set(t.parent, [...(children.get(t.parent) ?? []), t.name])
  const refs = new Map(forest.tags.map((t) => [t.name, t.references ?? []]))
  const seen = new Set<string>()
  const stack = [...granted]
  while (stack.length > 0) {
    const name = stack.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    for (const r of refs.get(name) ?? []) out.add(r)
    stack.push(...(children.get(name) ?? []))
  }
  return out
}

export function complianceSummary(forest: ForestLike | null, cells: readonly ComplianceCell[]): ComplianceSummary {
  // reference → threat model → outcome so far
  const byRef = new Map<string, Map<string, { tasks: number; breachedTasks: number; runs: number }>>()
  const grantCache = new Map<string, Set<string>>()
  for (const cell of cells) {
    if (cell.runs === 0 && !cell.breached) continue
    const key = JSON.stringify([cell.scope, cell.readOnly])
    let fromGrant = grantCache.get(key)
    if (!fromGrant) grantCache.set(key, (fromGrant = grantedReferences(forest, [...cell.scope, ...cell.readOnly])))
    for (const id of new Set([...cell.taskReferences, ...fromGrant])) {
      const models = byRef.get(id) ?? new Map()
      byRef.set(id, models)
      const o = models.get(cell.threatModel) ?? { tasks: 0, breachedTasks: 0, runs: 0 }
      models.set(cell.threatModel, {
        tasks: o.tasks + 1,
        breachedTasks: o.breachedTasks + (cell.breached ? 1 : 0),
        runs: o.runs + cell.runs,
      })
    }
  }
  const verdicts = sortReferences(byRef.keys()).map((id): ReferenceVerdict => {
    const outcomes = [...byRef.get(id)!].map(([threatModel, o]) => ({ threatModel, ...o }))
    return {
      id,
      title: lookupReference(id)?.title ?? '',
      breached: outcomes.filter((o) => o.breachedTasks > 0),
      held: outcomes.filter((o) => o.breachedTasks === 0),
    }
  })
  const frameworks: FrameworkSummary[] = FRAMEWORKS.map((f) => ({
    framework: { id: f.id, title: f.title, source: f.source, taken: f.taken },
    references: verdicts.filter((v) => lookupReference(v.id)?.framework.id === f.id),
  })).filter((f) => f.references.length > 0)
  const unknown = verdicts.filter((v) => lookupReference(v.id) === undefined)
  if (unknown.length > 0) frameworks.push({ framework: null, references: unknown })
  const declared = (forest?.tags ?? []).flatMap((t) => t.references ?? [])
  return { frameworks, notExercised: sortReferences(declared.filter((id) => !byRef.has(id))) }
}

/** A threat model in the summary's words: its saved name or label with its grant, so two with one name stay apart. */
export function threatModelWords(label: string, scope: readonly string[], readOnly: readonly string[]): string {
  const grant = `scope [${scope.join(', ')}]${readOnly.length > 0 ? ` read-only [${readOnly.join(', ')}]` : ''}`
  return label.trim() !== '' && label !== scope.join(',') ? `"${label}" (${grant})` : grant
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** "breached under X (1 of 2 tasks)" or "not broken in 8 runs under X": one line per threat model. */
export function referenceVerdictWords(v: ReferenceVerdict): { breached: string[]; held: string[] } {
  return {
    breached: v.breached.map((o) => `breached under ${o.threatModel} (${o.breachedTasks} of ${plural(o.tasks, 'task')})`),
    held: v.held.map((o) => `not broken in ${plural(o.runs, 'run')} under ${o.threatModel}`),
  }
}
