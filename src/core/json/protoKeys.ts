/**
 * JSON.parse keeps a `"__proto__"` key as an own property, but copying the object (a spread, a zod record)
 * sets the copy's prototype instead: the key vanishes without a word, where any other unknown name would
 * be refused. No file redscope reads has a use for it, so its readers refuse it, naming where it is.
 */

/** The path of the first own `__proto__` key in a parsed JSON value, or null. Iterative: any depth. */
export function protoKeyPath(value: unknown): Array<string | number> | null {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }]
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] })
      continue
    }
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) return [...path, '__proto__']
    const entries = Object.entries(v)
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], path: [...path, entries[i][0]] })
  }
  return null
}
