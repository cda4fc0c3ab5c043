/**
 * What a workspace is on disk (IndexedDB), versioned and parsed with zod when
 * read back, so a damaged or older entry is reported instead of crashing the
 * app. A workspace holds its forest with the current scope, its saved threat
 * models and the target it is connected to.
 */
import { z } from 'zod'
import { tagIdOf, type DesignDoc, type TagId } from '../core/model'

declare const workspaceIdBrand: unique symbol
export type WorkspaceId = string & { readonly [workspaceIdBrand]: 'WorkspaceId' }
export const workspaceIdOf = (s: string) => s as WorkspaceId

const TagIdSchema = z.string().transform((s) => tagIdOf(s))

export const DesignDocSchema = z.object({
  tags: z.array(z.object({ id: TagIdSchema, name: z.string(), parent: TagIdSchema.nullable(), description: z.string() })),
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
export const TargetRefSchema = z.union([
  z.object({ kind: z.literal('url'), url: z.string() }),
  z.object({ kind: z.literal('file'), fileName: z.string(), manifest: z.unknown() }),
]).nullable()
export type TargetRef = z.infer<typeof TargetRefSchema>

export const WorkspaceRecordSchema = z.object({
  v: z.literal(1),
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
  return { v: 1, id, name, doc: doc as WorkspaceRecord['doc'], models: [], target: null, createdAt: now, updatedAt: now }
}

export type { TagId }
