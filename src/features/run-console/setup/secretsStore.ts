/**
 * API keys and tokens for this session. By default they live in
 * sessionStorage (this tab, gone when it closes); only if the user ticks
 * "keep on this device" do they go to localStorage. They are handed to the
 * adapters at run time and nowhere else: never into results, exports, URLs
 * or logs (superred persists `{model}` only).
 */
import { create } from 'zustand'
import { z } from 'zod'
import { RUN_KEYS_ITEM } from '../../../lib/heldSecrets'

export const SECRET_NAMES = ['targetToken', 'openaiKey', 'genericSecret', 'attackerKey', 'judgeKey', 'optimizerToken'] as const
export type SecretName = (typeof SECRET_NAMES)[number]

const KEY = RUN_KEYS_ITEM
const Stored = z.object(
  Object.fromEntries(SECRET_NAMES.map((n) => [n, z.string().default('')])) as Record<SecretName, z.ZodDefault<z.ZodString>>,
)

type Values = Record<SecretName, string>

interface SecretsState {
  readonly values: Values
  /** Kept in localStorage (opted in) rather than sessionStorage. */
  readonly keep: boolean
  readonly actions: {
    set(name: SecretName, value: string): void
    setKeep(keep: boolean): void
    forget(): void
  }
}

const empty = (): Values => Object.fromEntries(SECRET_NAMES.map((n) => [n, ''])) as Values

function read(storage: Storage | undefined): Values | null {
  try {
    const raw = storage?.getItem(KEY)
    if (!raw) return null
    const parsed = Stored.safeParse(JSON.parse(raw))
    return parsed.success ? (parsed.data as Values) : null
  } catch {
    return null
  }
}

const local = typeof localStorage === 'undefined' ? undefined : localStorage
const session = typeof sessionStorage === 'undefined' ? undefined : sessionStorage
const kept = read(local)

export const useSecrets = create<SecretsState>()((set) => ({
  values: kept ?? read(session) ?? empty(),
  keep: kept !== null,
  actions: {
    set: (name, value) => set((s) => ({ values: { ...s.values, [name]: value } })),
    setKeep: (keep) => set({ keep }),
    forget: () => set({ values: empty() }),
  },
}))

// The one writer: each change goes to the chosen storage, and out of the other.
useSecrets.subscribe((s) => {
  const text = JSON.stringify(s.values)
  const anything = Object.values(s.values).some((v) => v !== '')
  try {
    const [to, from] = s.keep ? [local, session] : [session, local]
    from?.removeItem(KEY)
    if (anything) to?.setItem(KEY, text)
    else to?.removeItem(KEY)
  } catch {
    // Storage full or blocked: the keys stay in memory for this page.
  }
})

export const secretsActions = () => useSecrets.getState().actions
export const currentSecrets = () => useSecrets.getState().values
