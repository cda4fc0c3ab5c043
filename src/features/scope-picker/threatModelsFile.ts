/**
 * The workspace's saved threat models to and from threat-models.json: tag ids
 * become names on the way out and names ids on the way in, checked against
 * the open forest (a name it lacks is refused, naming the threat model).
 */
import type { DesignDoc } from '../../core/model'
import { pairNames } from '../../core/model'
import { parseThreatModelsFile, threatModelsFileText } from '../../core/threatModels'
import type { SavedModel } from '../../stores/workspaceTypes'

export function exportThreatModels(doc: Pick<DesignDoc, 'tags'>, models: readonly SavedModel[]): string {
  return threatModelsFileText(models.map((m) => ({ name: m.name, ...pairNames(doc, m), notes: m.notes })))
}

export interface ImportedModel {
  readonly name: string
  readonly scope: DesignDoc['scope']
  readonly readOnly: DesignDoc['readOnly']
  readonly notes: string
}

/** The file's threat models as tag ids of `doc`; an Error naming the file, the threat model and the tag otherwise. */
export function importThreatModels(doc: Pick<DesignDoc, 'tags'>, text: string, fileName: string): ImportedModel[] {
  let entries
  try {
    entries = parseThreatModelsFile(text)
  } catch (e) {
    throw new Error(`${fileName}: ${(e as Error).message}`)
  }
  const ids = new Map(doc.tags.map((t) => [t.name, t.id]))
  return entries.map((m) => {
    const idOf = (n: string) => {
      const id = ids.get(n)
      if (id === undefined) throw new Error(`${fileName}: threat model "${m.name}": "${n}" is not a tag of this forest`)
      return id
    }
    return { name: m.name, scope: m.scope.map(idOf), readOnly: m.readOnly.map(idOf), notes: m.notes ?? '' }
  })
}
