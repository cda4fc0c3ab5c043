/** `--template T`: a payload library name, `@file` for a file's text, or the template text itself. */
import { readFile } from 'node:fs/promises'
import { PAYLOAD_LIBRARY, payloadNamed } from '../attackers'
import { UsageError } from './io'

export async function resolveTemplates(values: readonly string[]): Promise<string[]> {
  // None given: the whole library, weakest first (each payload answers the defence that stopped the last).
  if (values.length === 0) return PAYLOAD_LIBRARY.map((p) => p.template)
  const out: string[] = []
  for (const v of values) {
    const named = payloadNamed(v)
    if (named) {
      out.push(named.template)
    } else if (v.startsWith('@')) {
      try {
        out.push(await readFile(v.slice(1), 'utf8'))
      } catch (e) {
        throw new UsageError(`--template ${v}: cannot read ${v.slice(1)} (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
      }
    } else if (/[\s{]/.test(v)) {
      out.push(v)
    } else {
      // A bare word that is no payload's name is most likely a typo, not a one-word payload.
      throw new UsageError(
        `--template ${v}: no payload named '${v}' (known: ${PAYLOAD_LIBRARY.map((p) => p.name).join(', ')}); ` +
          'give literal text with a space or a {placeholder}, or @FILE',
      )
    }
  }
  return out
}
