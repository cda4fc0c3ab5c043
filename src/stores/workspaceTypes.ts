/**
 * What a workspace is on disk (IndexedDB), versioned and parsed with zod when
 * read back, so a damaged or older entry is reported instead of crashing the
 * app. A workspace holds its forest with the current scope, its saved threat
 * models and the target it is connected to.
 */
import { z } from 'zod'
import { tagIdOf, type DesignDoc, type TagId } from '../core/model'
import { WORKSPACE_VERSION } from './workspaceMigrations'

declare const workspaceIdBrand: unique symbol
export type WorkspaceId = string & { readonly [workspaceIdBrand]: 'WorkspaceId' }
export const workspaceIdOf = (s: string) => s as WorkspaceId

const TagIdSchema = z.string().transform((s) => tagIdOf(s))

const TagListSchema = z.array(
  z.object({
    id: TagIdSchema,
    name: z.string(),
    parent: TagIdSchema.nullable(),
    description: z.string(),
    references: z.array(z.string()).optional(),
  }),
)

/** The tag list as stored since version 2: its JSON text (see tagListText). */
const TagListTextSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: `the tag list is not JSON (${(e as Error).message})` })
      return z.NEVER
    }
  })
  .pipe(TagListSchema)

export const DesignDocSchema = z.object({
  // A list as such: a record migrated from version 1, which stored it so.
  tags: z.union([TagListTextSchema, TagListSchema]),
  scope: z.array(TagIdSchema),
  readOnly: z.array(TagIdSchema),
})

export const SavedModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.array(TagIdSchema),
  readOnly: z.array(TagIdSchema),
  notes: z.string().default(''),
  savedAt: z.number(),
})
export type SavedModel = z.infer<typeof SavedModelSchema>

/** A target manifest's origin: a Target-over-HTTP URL (fetched live) or a file (kept as read). */
export const TargetRefSchema = z
  .union([
    z.object({ kind: z.literal('url'), url: z.string() }),
    z.object({ kind: z.literal('file'), fileName: z.string(), manifest: z.unknown() }),
  ])
  .nullable()
export type TargetRef = z.infer<typeof TargetRefSchema>

export const WorkspaceRecordSchema = z.object({
  v: z.literal(WORKSPACE_VERSION),
  id: z.string().transform(workspaceIdOf),
  name: z.string(),
  doc: DesignDocSchema,
  models: z.array(SavedModelSchema).default([]),
  target: TargetRefSchema.default(null),
  createdAt: z.number(),
  updatedAt: z.number(),
})
export type WorkspaceRecord = z.infer<typeof WorkspaceRecordSchema>

export interface WorkspaceSummary {
  id: WorkspaceId
  name: string
  tagCount: number
  createdAt: number
  updatedAt: number
}

export function summaryOf(r: WorkspaceRecord): WorkspaceSummary {
  return { id: r.id, name: r.name, tagCount: r.doc.tags.length, createdAt: r.createdAt, updatedAt: r.updatedAt }
}

export function newRecord(id: WorkspaceId, name: string, doc: DesignDoc, now = Date.now()): WorkspaceRecord {
  return { v: WORKSPACE_VERSION, id, name, doc: doc as WorkspaceRecord['doc'], models: [], target: null, createdAt: now, updatedAt: now }
}

/** The JSON text of each tag list stored, by the list: documents are immutable, so an edit of the scope keeps its list. */
const listTexts = new WeakMap<readonly unknown[], string>()

function tagListText(tags: readonly unknown[]): string {
  let text = listTexts.get(tags)
  if (text === undefined) {
    text = JSON.stringify(tags)
    listTexts.set(tags, text)
  }
  return text
}

/**
 * A record as IndexedDB stores it: the tag list as its JSON text. Putting a record clones it on the main thread, and
 * after every click in the designer the autosave put a 5,000-tag forest (~5-10 ms of cloning 5,000 objects); a text
 * clones in well under a millisecond, and is printed once per tag list, so a click that only changes the scope
 * stores the text printed before.
 */
export function storedRecord(
  r: WorkspaceRecord,
): Omit<WorkspaceRecord, 'doc'> & { doc: Omit<WorkspaceRecord['doc'], 'tags'> & { tags: string } } {
  return { ...r, doc: { ...r.doc, tags: tagListText(r.doc.tags) } }
}

export type { TagId }
