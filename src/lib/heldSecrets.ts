/**
 * The keys and tokens this page holds, for the mask applied where results leave for storage or for a file
 * (core/redaction/secretMask.ts). The run console hands over the ones a run uses; the ones it keeps for the
 * tab (session storage, or local storage when the user asked) are read here too, so an export made before
 * any run in this tab still masks them. Once held, a value stays masked for the page's life: a run still
 * writing after its key was changed or forgotten must not write the old one.
 */
import { secretMask, type SecretMask } from '../core/redaction'

/** Where the run console keeps its keys (features/run-console/setup/secretsStore.ts writes it). */
export const RUN_KEYS_ITEM = 'redscope-run-keys'

const held = new Set<string>()
let current = secretMask([])

/** Adds values to what this page masks (empty ones are ignored). */
export function holdSecrets(values: Iterable<string | null | undefined>): void {
  const before = held.size
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') held.add(v)
  if (held.size !== before) current = secretMask(held)
}

function kept(): string[] {
  const out: string[] = []
  for (const store of [globalThis.sessionStorage, globalThis.localStorage]) {
    try {
      const raw = store?.getItem(RUN_KEYS_ITEM)
      if (raw) for (const v of Object.values(JSON.parse(raw) as Record<string, unknown>)) if (typeof v === 'string') out.push(v)
    } catch {
      // Unreadable storage holds nothing to mask.
    }
  }
  return out
}

/**
 * The page's mask: always active (its secrets may arrive after a writer was made), the same object for
 * every caller, so that results storage is wrapped once (the results writer serialises per storage object).
 */
export const pageSecrets: SecretMask = {
  active: true,
  key: 'page',
  mask: (text) => current.mask(text),
}

/** The page's mask after taking in the keys the run console keeps: what an export applies. */
export function exportMask(): SecretMask {
  holdSecrets(kept())
  return pageSecrets
}
