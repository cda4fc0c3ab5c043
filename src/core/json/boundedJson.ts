/**
 * JSON from outside (a target's answer, an imported results file) may be
 * nested so deeply that the first recursive walk over it (JSON.stringify,
 * String(), structuredClone, a renderer) overflows the stack: 10,000 levels
 * are enough in V8, while JSON.parse itself accepts millions. Such input is
 * refused where it enters, with a message that says so, before it is parsed.
 * Python's json module refuses past about 1,000 levels too, so superred can
 * never have written anything deeper.
 */
export const MAX_JSON_DEPTH = 1_000

export class JsonTooDeepError extends Error {
  readonly maxDepth: number
  constructor(maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth.toLocaleString('en-US')} levels (refused: nothing legitimate nests that deep)`)
    this.name = 'JsonTooDeepError'
    this.maxDepth = maxDepth
  }
}

/** Does the JSON text nest arrays/objects deeper than `max`? One pass, strings skipped, no parsing. */
export function jsonDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return false
}

/** JSON.parse, refusing text nested deeper than `max` with a JsonTooDeepError. Syntax errors are JSON.parse's own. */
export function parseBoundedJson(text: string, max = MAX_JSON_DEPTH): unknown {
  if (jsonDeeperThan(text, max)) throw new JsonTooDeepError(max)
  return JSON.parse(text)
}
