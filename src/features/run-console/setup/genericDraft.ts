/** The generic HTTP endpoint form ↔ the adapter's spec, validated with the adapter's own schema. */
import { exampleGenericSpec, GenericHttpSpecSchema, type GenericHttpSpec } from '../../../adapters/endpoint-targets/genericHttpSpec'
import type { Forest } from '../../../core/tags'
import type { GenericDraft } from './setupTypes'

export function genericDraftFor(forest: Forest): GenericDraft {
  const ex = exampleGenericSpec(forest)
  return {
    name: ex.name ?? 'http-endpoint',
    method: ex.method,
    url: ex.url,
    headers: ex.headers ?? [],
    authHeader: ex.authHeader ?? 'Authorization',
    bodyTemplate: ex.bodyTemplate ?? '',
    fields: (ex.fields ?? []).map((f) => ({
      name: f.name,
      role: f.role,
      securityDomain: f.securityDomain,
      description: f.description ?? '',
      default: f.default ?? '',
    })),
    outputs: ex.outputs.map((o) => ({
      name: o.name,
      path: o.path,
      securityDomain: o.securityDomain,
      description: o.description ?? '',
      controllable: o.controllable ?? false,
    })),
    maxRetries: String(ex.maxRetries ?? 3),
    maxRetryWaitS: String(ex.maxRetryWaitS ?? 30),
  }
}

export interface GenericCheck {
  readonly spec: GenericHttpSpec | null
  /** Messages by field path (`url`, `fields.1.securityDomain`, `bodyTemplate`...). */
  readonly issues: ReadonlyMap<string, string>
}

export function checkGeneric(draft: GenericDraft, forest: Forest): GenericCheck {
  const parsed = GenericHttpSpecSchema.safeParse({
    ...draft,
    headers: draft.headers.filter((h) => h.name.trim() !== '' || h.value.trim() !== ''),
    maxRetries: draft.maxRetries.trim() === '' ? Number.NaN : Number(draft.maxRetries),
    maxRetryWaitS: draft.maxRetryWaitS.trim() === '' ? Number.NaN : Number(draft.maxRetryWaitS),
    forest,
  })
  if (parsed.success) return { spec: parsed.data, issues: new Map() }
  const issues = new Map<string, string>()
  for (const i of parsed.error.issues) {
    const key = i.path.join('.')
    if (!issues.has(key)) issues.set(key, i.message)
  }
  return { spec: null, issues }
}
