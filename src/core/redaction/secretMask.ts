/**
 * The keys and tokens redscope holds (the attacker's and the judge's API keys, the target's token, an
 * endpoint's secret header), masked out of everything it persists or exports. A model may repeat the key
 * it was called with, a judge may quote it in a rationale, a target may echo its token: the value then
 * travels as content, which the engine records faithfully, so the mask is applied where text leaves for a
 * file (results storage, exports), never inside the run.
 *
 * Caught: the secret as it is; as JSON escapes it (and as Python's ensure_ascii does); percent-encoded;
 * base64 and base64url at any alignment inside a longer encoded text (from 8 characters on).
 * Not caught: a secret split across two values (two streamed chunks, two trajectory items, two files), a
 * part of one (a prefix, the last four characters), or one the model transformed otherwise (spelled out,
 * reversed, hex, case changed, translated). The export dialog's secret rule (secretRule.ts) catches more of
 * those, on a value the user names.
 */
import { base64Cores, MIN_SECRET_CHARS } from './base64Cores'

export const SECRET_MASK = '[redacted]'
/** Below this, an encoded form's core is short enough to occur in other encoded text by chance. */
const MIN_ENCODED_CHARS = 8

export interface SecretMask {
  /** False when there is nothing to mask: callers skip the work (and keep their fast paths). */
  readonly active: boolean
  /** A stable key of the secrets, so that one wrapper serves every caller holding the same ones. */
  readonly key: string
  mask(text: string): string
}

const asciiEscaped = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
const base64Url = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_')

/** Every form of `secret` the mask replaces, longest first. */
export function secretMaskForms(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_CHARS) return []
  const json = JSON.stringify(secret).slice(1, -1)
  const forms = new Set([secret, json, asciiEscaped(json), encodeURIComponent(secret)])
  if (secret.length >= MIN_ENCODED_CHARS) {
    for (const core of base64Cores(secret)) {
      if (core.length < MIN_ENCODED_CHARS) continue
      forms.add(core)
      forms.add(base64Url(core))
    }
  }
  return [...forms].sort((a, b) => b.length - a.length)
}

/** A mask for the secrets given (empty, null and too-short values are left out). */
export function secretMask(secrets: Iterable<string | null | undefined>): SecretMask {
  const values = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.trim() !== ''))].sort()
  const forms = [...new Set(values.flatMap(secretMaskForms))].sort((a, b) => b.length - a.length)
  const mask = (text: string): string => {
    let out = text
    // includes() first: the common case (no secret in the text) is a scan per form and no copy.
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(SECRET_MASK)
    return out
  }
  return { active: forms.length > 0, key: values.join('\u0000'), mask }
}

/** Nothing to mask. */
export const NO_SECRETS: SecretMask = secretMask([])
