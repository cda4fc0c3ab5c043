/**
 * threat-models.json: a workspace's saved threat models as a file a team
 * keeps in git beside its forest, by tag name (not the designer's tag ids),
 * names and notes kept. `redscope sweep --threat-models` runs it (each
 * experiment named after its threat model) and the designer imports it.
 */
import { z } from 'zod'
import { formatPath } from '../tags'

export const THREAT_MODELS_FILE = 'threat-models.json'

const Names = z.array(z.string().min(1))
export const ThreatModelEntrySchema = z.object({
  name: z.string().trim().min(1),
  scope: Names,
  read_only: Names.default([]),
  notes: z.string().default(''),
})
export const ThreatModelsFileSchema = z.object({
  v: z.literal(1),
  threat_models: z.array(ThreatModelEntrySchema),
})
export type ThreatModelEntry = z.infer<typeof ThreatModelEntrySchema>

export interface NamedGrants {
  readonly name: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly notes?: string
}

/** The file's text: two-space JSON, one entry per threat model in the order given. */
export function threatModelsFileText(models: readonly NamedGrants[]): string {
  const file = {
    v: 1 as const,
    threat_models: models.map((m) => ({ name: m.name, scope: [...m.scope], read_only: [...m.readOnly], notes: m.notes ?? '' })),
  }
  return `${JSON.stringify(file, null, 2)}\n`
}

/** The entries of a threat-models.json text; an Error naming the first problem's place otherwise. */
export function parseThreatModelsFile(text: string): NamedGrants[] {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new Error(`not JSON (${(e as Error).message})`)
  }
  const parsed = ThreatModelsFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(
      `${issue.path.length ? formatPath(issue.path) : '(root)'}: ${issue.message} (expected {"v": 1, "threat_models": [{"name", "scope", "read_only", "notes"}]})`,
    )
  }
  return parsed.data.threat_models.map((m) => ({ name: m.name, scope: m.scope, readOnly: m.read_only, notes: m.notes }))
}
