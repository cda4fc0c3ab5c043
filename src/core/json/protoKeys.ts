/**
 * JSON.parse keeps a `"__proto__"` key as an own property, but copying the object (a spread, a zod record)
 * sets the copy's prototype instead: the key vanishes without a word, where any other unknown name would
 * be refused. No file redscope reads has a use for it, so its readers refuse it, naming where it is.
 */

/** A value still to visit, linked to its parent so that a path is built only for the key that is found. */
interface Visit {
  value: unknown
  key: string | number | null
  parent: Visit | null
}

function pathOf(visit: Visit): Array<string | number> {
  const path: Array<string | number> = []
  for (let v: Visit | null = visit; v !== null && v.key !== null; v = v.parent) path.push(v.key)
  return path.reverse()
}

/**
 * The path of the first own `__proto__` key in a parsed JSON value, or null. Iterative and linear: a path copied at
 * every level made a value nested 100,000 deep take minutes.
 */
export function protoKeyPath(value: unknown): Array<string | number> | null {
  const stack: Visit[] = [{ value, key: null, parent: null }]
  while (stack.length > 0) {
    const visit = stack.pop()!
    const v = visit.value
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit })
      continue
    }
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) return [...pathOf(visit), '__proto__']
    const entries = Object.entries(v)
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: visit })
  }
  return null
}
