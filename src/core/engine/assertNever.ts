/** Ends an exhaustive switch: adding a union member breaks the build wherever it is not handled. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`)
}
