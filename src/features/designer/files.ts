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
import { replaceForest } from '../../stores/forestCommands'
import { plural } from '../../lib/plural'

export type ImportKind = 'json' | 'python'

export async function importForestFile(file: File, kind: ImportKind): Promise<boolean> {
  try {
    const text = await fileText(file)
    if (kind === 'json') {
      const forest = parseForestJson(text)
      replaceForest(forest)
      notify('info', `Imported ${plural(forest.tags.length, 'tag')} from ${file.name}.`)
    } else {
      const imported = parseSecurityTags(text)
      const { forest, notes } = imported
      replaceForest(forest)
      // The module is a whole system's forest: the workspace takes its name (docstring, else file name), and says so.
      const name = workspaceNameFor(imported, file.name)
      workspaceStore.getState().setName(name)
      // The name itself shows in the sidebar; the notice says where it came from (and stays short).
      notify('info', [`Imported ${plural(forest.tags.length, 'tag')} from ${file.name}, and named the workspace after its ${imported.title ? 'docstring' : 'file name'}.`, ...notes].join(' '))
    }
    return true
  } catch (e) {
    if (e instanceof ForestFileError || e instanceof PythonImportError) {
      notify('error', `${file.name}: ${e.message}`)
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
