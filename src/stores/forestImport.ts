/**
 * Where an imported forest goes (a FOREST.json, a security_tags.py, a target's
 * manifest). By default into a new workspace named after what was imported,
 * opened: the workspace that was open, its forest and its saved threat models
 * stay as they were. Only when the user chooses to replace does the open
 * workspace's forest change, as one undoable edit that says which saved
 * threat models lose which tags. A workspace with no tags and no saved threat
 * models (the one "+ New workspace > Empty forest" just made) has nothing to
 * lose: it takes the forest itself rather than leaving an empty one behind.
 */
import { docFromForest } from '../core/model'
import type { Forest } from '../core/tags'
import { APP_WORKSPACE, lostSentence, replaceForest, type OpenWorkspace, type Replacement } from './forestCommands'
import { newTagId } from './ids'
import { selectDoc } from './selectors'
import { describeSaveError, UNTITLED, workspaceService, type WorkspaceService } from './workspaceService'
import type { TargetRef } from './workspaceTypes'

export type ImportInto = 'new' | 'replace'

/** The new workspace could not be written (storage full or refused): nothing changed. */
export class ImportSaveError extends Error {}

export interface IncomingForest {
  forest: Forest
  /** What a new workspace is called: the target's name, the module's docstring, the file's name. */
  name: string
  /** The target it comes from (a manifest), to connect the workspace to; undefined keeps the workspace's own. */
  target?: TargetRef
}

export type ImportOutcome =
  | { into: 'new'; workspace: string }
  /** The open workspace was empty (no tags, no saved threat models) and took the forest; `renamed`: it was untitled. */
  | { into: 'empty'; workspace: string; renamed: boolean }
  | ({ into: 'replace' } & Replacement)

/** `name`, or `name (2)`, `name (3)`, ... : the first that no workspace in `taken` has. */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const names = new Set(taken)
  if (!names.has(name)) return name
  let n = 2
  while (names.has(`${name} (${n})`)) n++
  return `${name} (${n})`
}

/** Throws the engine's SecurityDomainError for a forest superred would refuse, before anything changes. */
export async function importForest(
  incoming: IncomingForest,
  into: ImportInto,
  open: OpenWorkspace = APP_WORKSPACE,
  service: () => WorkspaceService = workspaceService,
): Promise<ImportOutcome> {
  const fresh = docFromForest(incoming.forest, newTagId)
  const w = open.workspaces.getState()
  if (into === 'replace') {
    const replaced = replaceForest(incoming.forest, undefined, open)
    if (incoming.target !== undefined) w.setTarget(incoming.target)
    return { into: 'replace', ...replaced }
  }
  if (selectDoc(open.designer.getState()).tags.length === 0 && w.models.length === 0) {
    open.designer.getState().dispatch({ type: 'replaceDoc', doc: fresh })
    open.designer.getState().select([])
    // A name the user gave stays; an untitled workspace is named after what it now holds.
    const renamed = w.name === UNTITLED || w.name.trim() === ''
    if (renamed)
      w.setName(
        uniqueName(
          incoming.name,
          w.workspaces.filter((x) => x.id !== w.activeId).map((x) => x.name),
        ),
      )
    if (incoming.target !== undefined) w.setTarget(incoming.target)
    return { into: 'empty', workspace: open.workspaces.getState().name, renamed }
  }
  const name = uniqueName(
    incoming.name,
    w.workspaces.map((x) => x.name),
  )
  try {
    await service().create(name, fresh, [], incoming.target ?? null)
  } catch (e) {
    // A new workspace is written before it opens: a full or refused storage leaves the open one as it was, and says so.
    throw new ImportSaveError(`Not imported: the new workspace “${name}” could not be written. ${describeSaveError(e)}`, { cause: e })
  }
  return { into: 'new', workspace: name }
}

/**
 * Where it went, to follow "Imported 3 tags from f.json": " into a new workspace, “f”." and so on. `namedAfter`
 * says where a new name came from ("its docstring"), when that is not plain.
 */
export function whereItWent(outcome: ImportOutcome, namedAfter?: string): string {
  const after = namedAfter ? ` (named after ${namedAfter})` : ''
  switch (outcome.into) {
    case 'new':
      return ` into a new workspace, “${outcome.workspace}”${after}.`
    case 'empty':
      return outcome.renamed
        ? ` into this empty workspace, now “${outcome.workspace}”${after}.`
        : ` into this empty workspace, “${outcome.workspace}”.`
    case 'replace':
      return [`, replacing the forest of “${outcome.workspace}” (Undo brings it back).`, lostSentence(outcome.lost)]
        .filter(Boolean)
        .join(' ')
  }
}
