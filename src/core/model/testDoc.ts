/** Builders for model tests: a document from `[name, parent]` pairs with ids equal to names. */
import { CHATBOT_FOREST } from '../tags'
import { docFromForest, tagIdOf, type DesignDoc, type TagId } from './doc'

export const id = (name: string): TagId => tagIdOf(`id:${name}`)

export function docOf(pairs: Array<[string, string | null]>, scope: string[] = [], readOnly: string[] = []): DesignDoc {
  return {
    tags: pairs.map(([name, parent]) => ({ id: id(name), name, parent: parent === null ? null : id(parent), description: '' })),
    scope: scope.map(id),
    readOnly: readOnly.map(id),
  }
}

export function chatbotDoc(): DesignDoc {
  return docFromForest(CHATBOT_FOREST, counterIds())
}

/** Deterministic ids t1, t2, ... */
export function counterIds(prefix = 't'): () => TagId {
  let n = 0
  return () => tagIdOf(`${prefix}${++n}`)
}

export const names = (doc: DesignDoc) => doc.tags.map((t) => t.name)
export const parentName = (doc: DesignDoc, name: string) => {
  const t = doc.tags.find((x) => x.name === name)!
  return t.parent === null ? null : doc.tags.find((x) => x.id === t.parent)!.name
}
