/**
 * The JSON Schema keywords serve-llm holds a model's answer to. node-llama-cpp
 * turns a schema into a sampling grammar but skips what it does not know
 * (`minimum`, `pattern`, a misspelt type) without a word: the answer would
 * then claim a constraint nobody applied. So a schema is checked here first,
 * and one with anything else is refused, naming the keyword and where it is.
 */

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])
const FORMATS = new Set(['date-time', 'time', 'date'])
/** Held by the grammar. `anyOf` is held as `oneOf`: an answer that matches one alternative matches any of them. */
const KEYWORDS = new Set([
  'type',
  'const',
  'enum',
  'oneOf',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'format',
  '$defs',
  '$ref',
])
/** Words about the schema that constrain nothing. */
const ANNOTATIONS = new Set(['description', 'title', '$schema', '$id', '$comment', 'examples', 'default'])

type Path = Array<string | number>

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The first part of a schema this server cannot hold answers to, as "path: problem", or null. */
export function unsupportedSchemaPart(schema: unknown, path: Path = []): { path: Path; problem: string } | null {
  if (typeof schema === 'boolean') return null
  if (!isObject(schema)) return { path, problem: 'a schema must be an object' }
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue
    if (!KEYWORDS.has(key)) return { path: [...path, key], problem: `'${key}' is a keyword this server cannot hold answers to` }
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value]
      const bad = types.find((t) => typeof t !== 'string' || !TYPES.has(t))
      if (bad !== undefined || types.length === 0)
        return { path: [...path, key], problem: `${JSON.stringify(bad ?? value)} is not a JSON Schema type` }
    }
    if (key === 'format' && (typeof value !== 'string' || !FORMATS.has(value))) {
      return { path: [...path, key], problem: `format ${JSON.stringify(value)} cannot be held (only date-time, time, date)` }
    }
    const children: Array<[Path, unknown]> =
      key === 'properties' || key === '$defs'
        ? isObject(value)
          ? Object.entries(value).map(([k, v]) => [[...path, key, k], v])
          : [[[...path, key], null]]
        : key === 'oneOf' || key === 'anyOf' || key === 'prefixItems'
          ? Array.isArray(value)
            ? value.map((v, i) => [[...path, key, i], v])
            : [[[...path, key], null]]
          : key === 'items' || (key === 'additionalProperties' && typeof value !== 'boolean')
            ? [[[...path, key], value]]
            : []
    for (const [childPath, child] of children) {
      const found = unsupportedSchemaPart(child, childPath)
      if (found !== null) return found
    }
  }
  return null
}

/** The schema as node-llama-cpp reads it: `anyOf` spelt `oneOf`, annotations other than descriptions dropped. */
export function grammarSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(grammarSchema)
  if (!isObject(schema)) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) && key !== 'description') continue
    const name = key === 'anyOf' ? 'oneOf' : key
    // const and enum values are data, never schemas: kept as they are.
    out[name] =
      key === 'const' || key === 'enum' || key === 'required'
        ? value
        : key === 'properties' || key === '$defs'
          ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, grammarSchema(v)]))
          : grammarSchema(value)
  }
  return out
}
