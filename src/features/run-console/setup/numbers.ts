/** Number fields as typed: checked on read, so the form shows the problem and a run refuses to start. */

export interface NumberRule {
  readonly label: string
  readonly min?: number
  /** Strictly greater than min. */
  readonly exclusive?: boolean
  readonly integer?: boolean
  /** Blank means "none" (null) rather than an error. */
  readonly optional?: boolean
}

export type NumberCheck = { readonly value: number | null; readonly error: null } | { readonly value: null; readonly error: string }

export function checkNumber(text: string, rule: NumberRule): NumberCheck {
  const t = text.trim()
  if (t === '') return rule.optional ? { value: null, error: null } : { value: null, error: `${rule.label}: required` }
  const n = Number(t)
  if (!Number.isFinite(n)) return { value: null, error: `${rule.label}: "${t}" is not a number` }
  if (rule.integer && !Number.isInteger(n)) return { value: null, error: `${rule.label}: must be a whole number` }
  if (rule.min !== undefined && (rule.exclusive ? n <= rule.min : n < rule.min)) {
    return { value: null, error: `${rule.label}: must be ${rule.exclusive ? 'more than' : 'at least'} ${rule.min}` }
  }
  return { value: n, error: null }
}

export class SetupError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SetupError'
  }
}

/** The value, or a SetupError with the field's message (for building a run). */
export function numberOrThrow(text: string, rule: NumberRule): number | null {
  const c = checkNumber(text, rule)
  if (c.error !== null) throw new SetupError(c.error)
  return c.value
}

export const RULES = {
  concurrency: { label: 'Tasks at once', min: 1, integer: true },
  maxRuns: { label: 'Max runs per task', min: 1, integer: true },
  maxTurns: { label: 'Max turns per run', min: 1, integer: true },
  costCap: { label: 'Cost cap per task (USD)', min: 0, optional: true },
  timeCap: { label: 'Time cap per task (s)', min: 0, exclusive: true, optional: true },
  parallelModels: { label: 'Threat models at once', min: 1, integer: true },
  price: { label: 'Price (USD per 1M tokens)', min: 0, optional: true },
  maxRetries: { label: 'Retries on 429', min: 0, integer: true },
  maxRetryWaitS: { label: 'Longest wait (s)', min: 0 },
} as const satisfies Record<string, NumberRule>
