/**
 * A threat model in a URL fragment, so a colleague opens exactly the same
 * forest and scope with no server: `#share=<base64url(deflate(json))>`. The
 * fragment never reaches a server. Decoding validates everything (a link is
 * untrusted input) and says what is wrong with a damaged one.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate'
import { z } from 'zod'
import { JsonTooDeepError, parseBoundedJson } from '../core/json'
import { buildDomain, describeForestIssues, ForestSchema, SecurityDomainError, type Forest } from '../core/tags'

export const PERMALINK_KEY = 'share'

export const SharedModelSchema = z.object({
  v: z.literal(1),
  name: z.string().optional().default('Shared threat model'),
  forest: ForestSchema,
  scope: z.array(z.string()).default([]),
  readOnly: z.array(z.string()).default([]),
})
export type SharedModel = z.infer<typeof SharedModelSchema>

export class PermalinkError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PermalinkError'
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

export function encodePermalink(model: { name?: string; forest: Forest; scope: readonly string[]; readOnly: readonly string[] }): string {
  const json = JSON.stringify({ v: 1, name: model.name, forest: model.forest, scope: model.scope, readOnly: model.readOnly })
  return `${PERMALINK_KEY}=${toBase64Url(deflateSync(strToU8(json), { level: 9 }))}`
}

/** The encoded part of a location hash, or null when the hash holds no permalink. */
export function permalinkPayload(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  return params.get(PERMALINK_KEY)
}

/**
 * A link unpacks to at most this much JSON. A few hundred kilobytes of
 * fragment can otherwise inflate to gigabytes (a deflate bomb) and take the
 * tab down; 5,000 tags with descriptions take well under 2 MB.
 */
export const MAX_PERMALINK_JSON_BYTES = 16 * 2 ** 20

export function decodePermalink(payload: string): SharedModel {
  let bytes: Uint8Array
  try {
    // fflate stops writing at the end of `out`: one byte more than allowed tells a bomb from a fit.
    bytes = inflateSync(fromBase64Url(payload), { out: new Uint8Array(MAX_PERMALINK_JSON_BYTES + 1) })
  } catch {
    throw new PermalinkError('This link is damaged: its threat model could not be unpacked (was it cut short when copied?).')
  }
  if (bytes.length > MAX_PERMALINK_JSON_BYTES) {
    throw new PermalinkError(`This link is refused: its threat model would unpack to more than ${MAX_PERMALINK_JSON_BYTES / 2 ** 20} MB.`)
  }
  let json: unknown
  try {
    json = parseBoundedJson(strFromU8(bytes))
  } catch (e) {
    if (e instanceof JsonTooDeepError) throw new PermalinkError(`This link is refused: its threat model is ${e.message}.`)
    throw new PermalinkError('This link is damaged: its threat model could not be unpacked (was it cut short when copied?).')
  }
  const parsed = SharedModelSchema.safeParse(json)
  if (!parsed.success) throw new PermalinkError(`This link does not hold a threat model: ${describeForestIssues(parsed.error)}`)
  try {
    buildDomain(parsed.data.forest)
  } catch (e) {
    if (e instanceof SecurityDomainError) throw new PermalinkError(`This link's forest is not valid: ${e.message}`)
    throw e
  }
  return parsed.data
}
