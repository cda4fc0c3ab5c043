/**
 * memoizeOne: remembers the last call by the identity of its arguments. The
 * document is immutable and edits copy only what they change (`tags` keeps its
 * identity when only the scope changes), so derived values are recomputed
 * exactly when their inputs change, and shared by every component that reads them.
 */
export function memoizeOne<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let lastArgs: A | null = null
  let last: R
  return (...args: A) => {
    if (lastArgs !== null && lastArgs.length === args.length && lastArgs.every((a, i) => a === args[i])) return last
    last = fn(...args)
    lastArgs = args
    return last
  }
}
