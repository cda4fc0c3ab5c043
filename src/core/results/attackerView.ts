/**
 * What the attacker saw of a run, derived on read from what the tree stores once: the run's full trajectory
 * (run_NNNNN.json), the task's grant (attacker.json, else task.json) and the experiment's forest (domain.json).
 *
 * Why derived rather than stored: redscope wrote it beside every run as run_NNNNN.attacker.json until the tree
 * format stored it once (about a quarter of a sweep's bytes, and most of what kept a sweep with trees slower than
 * the engine alone). The derivation applies the engine's own filter (`attackerSees`, the one the recorder applies as
 * the run goes) to the forest's own tags, so it is what the optimizer was sent, item by item (attackerView.test.ts
 * checks that on every conformance case). Trees written before still have the file: it is read when present.
 * A plain superred tree has no domain.json, hence no forest to walk: nothing is derived there (the viewer then
 * recomputes by names and says it is guessing).
 */
import { domainOf as domainOfItem, type TrajectoryItem } from '../engine/events'
import { attackerSees } from '../engine/trajectory'
import { visibilityOf } from '../engine/scopeResolution'
import { resolveDomains } from '../replay/pairing'
import type { PersistedItemLike } from '../replay/items'
import { buildDomain, ForestSchema, scopeOf, type Forest, type Scope, type SecurityDomain } from '../tags'
import { AttackerFile, TaskFile, TrajectoryFile } from './format'
import { ResultsFormatError, readJsonFile, readOptional } from './reader'
import { runFileName } from './slug'
import { joinPath, type Storage } from './storage'

/** Where an attacker's view came from: the run's own attacker file (older trees), or derived with the engine's filter. */
export type AttackerViewSource = 'attacker-file' | 'derived'

/** The grant by tag names, as task.json and attacker.json record it. */
export interface GrantNames {
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
}

/** A forest's domain, built once per forest object (a sweep's report derives thousands of views from one). */
const domains = new WeakMap<Forest, SecurityDomain>()

function domainOf(forest: Forest): SecurityDomain {
  let domain = domains.get(forest)
  if (domain === undefined) {
    domain = buildDomain(forest)
    domains.set(forest, domain)
  }
  return domain
}

/** The task's visibility as the engine builds it, from the forest's own tags (the filter walks ancestry by identity). */
function visibilityFor(domain: SecurityDomain, grant: GrantNames, where: string): Scope {
  const tags = (names: readonly string[]) =>
    scopeOf(
      names.map((name) => {
        const tag = domain.get(name)
        if (tag === undefined) throw new ResultsFormatError(where, `the grant names '${name}', which domain.json does not list`)
        return tag
      }),
    )
  return visibilityOf(tags(grant.scope), tags(grant.readOnly))
}

/**
 * The items of a run's full trajectory that the attacker saw, in order: an event when the visibility covers its
 * domain, a response when it covers its event's (paired as resolveDomains pairs them). `where` names the files in
 * an error.
 */
export function deriveAttackerView<T extends PersistedItemLike>(
  items: readonly T[],
  forest: Forest,
  grant: GrantNames,
  where = 'the task',
): T[] {
  const domain = domainOf(forest)
  const visibility = visibilityFor(domain, grant, where)
  const names = resolveDomains(items).domains
  const seen: T[] = []
  for (let i = 0; i < items.length; i++) {
    const name = names[i]
    const tag = name === null ? undefined : domain.get(name)
    // A domain the forest does not list is no tag of the target's: the engine's filter could not have passed it.
    if (tag !== undefined && attackerSees(visibility, tag)) seen.push(items[i])
  }
  return seen
}

/**
 * For one task: whether `deriveAttackerView` will give back exactly a run's `view` from the run's file. The writer
 * asks before it leaves the run's attacker file out. It holds unless the engine's tags are not the forest's (a
 * look-alike tag in the grant, a domain.json other than the target's forest), where names cannot tell what identity
 * did: then the file is kept. Null when the grant names a tag the forest lacks (nothing can be derived).
 */
export function derivesTo(
  domain: SecurityDomain,
  grant: GrantNames,
): ((items: readonly TrajectoryItem[], view: readonly TrajectoryItem[]) => boolean) | null {
  let visibility: Scope
  try {
    visibility = visibilityFor(domain, grant, '')
  } catch {
    return null
  }
  return (items, view) => sameAsDerived(items, view, domain, visibility)
}

function sameAsDerived(
  items: readonly TrajectoryItem[],
  view: readonly TrajectoryItem[],
  domain: SecurityDomain,
  visibility: Scope,
): boolean {
  let next = 0
  for (const item of items) {
    const tag = domain.get(domainOfItem(item)?.name ?? '')
    const derived = tag !== undefined && attackerSees(visibility, tag)
    const sent = next < view.length && view[next] === item
    if (derived !== sent) return false
    if (sent) next++
  }
  return next === view.length
}

/** `{experiment}/tasks/{task}` → `{experiment}`. */
function experimentDirOf(taskDir: string): string {
  const parts = taskDir.split('/')
  return parts.slice(0, Math.max(0, parts.length - 2)).join('/')
}

export interface AttackerView {
  readonly file: TrajectoryFile
  readonly source: AttackerViewSource
}

/**
 * One run's attacker view: its attacker file when the tree has one, else derived from the run's trajectory, the
 * task's grant and the experiment's domain.json; null when the run has no trajectory or the tree no forest.
 */
export async function readAttackerView(storage: Storage, taskDir: string, runNumber: number): Promise<AttackerView | null> {
  const dir = joinPath(taskDir, 'trajectories')
  const recorded = await readOptional(storage, joinPath(dir, runFileName(runNumber, '.attacker')), TrajectoryFile)
  if (recorded !== null) return { file: recorded, source: 'attacker-file' }
  const forest = await readOptional(storage, joinPath(experimentDirOf(taskDir), 'domain.json'), ForestSchema)
  if (forest === null) return null
  const full = await readOptional(storage, joinPath(dir, runFileName(runNumber)), TrajectoryFile)
  if (full === null) return null
  const offered = await readOptional(storage, joinPath(taskDir, 'attacker.json'), AttackerFile)
  const grant = offered ?? (await readJsonFile(storage, joinPath(taskDir, 'task.json'), TaskFile))
  const trajectory = deriveAttackerView(full.trajectory, forest, { scope: grant.scope, readOnly: grant.read_only }, taskDir)
  return { file: { ...full, trajectory }, source: 'derived' }
}
