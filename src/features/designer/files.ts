/**
 * Import and export of the forest: FOREST.json, superred's security_tags.py,
 * a target manifest (its forest), and the diagram as SVG or PNG. Every failure
 * becomes one notice that names the line or the field.
 */
import { fileText, ForestFileError, forestToJson, parseForestJson } from '../../lib/forestJson'
import { downloadText, safeFileName } from '../../lib/download'
import { forestToPython } from '../../lib/pythonExport'
import { parseSecurityTags, PythonImportError, workspaceNameFor } from '../../lib/pythonTags'
import { toForest } from '../../core/model'
import { designerStore } from '../../stores/designerStore'
import { notify } from '../../stores/noticeStore'
import { domainOf, selectDoc } from '../../stores/selectors'
import { workspaceStore } from '../../stores/workspaceStore'
import { importForest, ImportSaveError, whereItWent, type ImportInto } from '../../stores/forestImport'
import { plural } from '../../lib/plural'

export type ImportKind = 'json' | 'python'

/** A FOREST.json's workspace name: its file name without `.forest.json` or `.json`. */
export function forestFileWorkspaceName(fileName: string): string {
  return fileName.replace(/(\.forest)?\.json$/i, '').trim() || 'Imported forest'
}

/** Reads a forest file into a new workspace, or into this one when `into` is 'replace' (see stores/forestImport). */
export async function importForestFile(file: File, kind: ImportKind, into: ImportInto): Promise<boolean> {
  try {
    const text = await fileText(file)
    if (kind === 'json') {
      const forest = parseForestJson(text)
      const outcome = await importForest({ forest, name: forestFileWorkspaceName(file.name) }, into)
      notify('info', `Imported ${plural(forest.tags.length, 'tag')} from ${file.name}${whereItWent(outcome)}`)
    } else {
      const imported = parseSecurityTags(text)
      const { forest, notes } = imported
      // The module is a whole system's forest: a new workspace takes its name (docstring, else file name), and says so.
      const outcome = await importForest({ forest, name: workspaceNameFor(imported, file.name) }, into)
      // The name itself shows in the sidebar; the notice says where it came from (and stays short).
      const namedAfter = `its ${imported.title ? 'docstring' : 'file name'}`
      notify(
        'info',
        [`Imported ${plural(forest.tags.length, 'tag')} from ${file.name}${whereItWent(outcome, namedAfter)}`, ...notes].join(' '),
      )
    }
    return true
  } catch (e) {
    if (e instanceof ForestFileError || e instanceof PythonImportError) {
      notify('error', `${file.name}: ${e.message}`)
      return false
    }
    if (e instanceof ImportSaveError) {
      notify('error', e.message)
      return false
    }
    throw e
  }
}

const forestNow = () => toForest(selectDoc(designerStore.getState()))

/** superred would refuse an invalid forest: say why instead of writing a file that fails later. */
function validForExport(): boolean {
  const d = domainOf(selectDoc(designerStore.getState()).tags)
  if ('error' in d) notify('error', `Not exported: ${d.error.message}. Fix the forest first (the finding is shown beside the tag).`)
  return !('error' in d)
}
const baseName = () => safeFileName(workspaceStore.getState().name)

export function exportForestJson(): void {
  if (!validForExport()) return
  downloadText(`${baseName()}.forest.json`, forestToJson(forestNow()), 'application/json')
}

export function exportPython(): void {
  if (!validForExport()) return
  downloadText('security_tags.py', forestToPython(forestNow(), workspaceStore.getState().name || 'Security domains'), 'text/x-python')
}
