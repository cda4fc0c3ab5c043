/**
 * A served optimizer's kwargs form, generated from the JSON Schema its server
 * publishes: one field per property, typed from the schema (integers,
 * numbers, text, a choice, yes/no, a list of lines, else JSON). Drafts stay
 * text as typed; an empty field is left out, so the server's default holds.
 * The server checks the result again (its schema and its constructor) before
 * anything runs.
 */

export type KwargKind = 'integer' | 'number' | 'string' | 'boolean' | 'enum' | 'lines' | 'json'

export interface KwargField {
  readonly name: string
  readonly kind: KwargKind
  /** The schema allows null (an empty field means the default, which may be null). */
  readonly nullable: boolean
  readonly required: boolean
  readonly options: readonly string[]
  readonly description: string
  /** The default as the field would show it ('' when there is none). */
  readonly placeholder: string
  readonly minimum: number | null
  readonly maximum: number | null
}

type JsonSchema = Record<string, unknown>

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v)

function typesOf(schema: JsonSchema): string[] {
  const t = schema.type
  if (typeof t === 'string') return [t]
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string')
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap((s) => (isObject(s) ? typesOf(s) : []))
  return []
}

function kindOf(schema: JsonSchema, types: readonly string[]): KwargKind {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'enum'
  const solid = types.filter((t) => t !== 'null')
  if (solid.length !== 1) return 'json'
  switch (solid[0]) {
    case 'integer':
      return 'integer'
    case 'number':
      return 'number'
    case 'string':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'array': {
      const items = isObject(schema.items) ? typesOf(schema.items) : []
      return items.length === 1 && items[0] === 'string' ? 'lines' : 'json'
    }
    default:
      return 'json'
  }
}

function shown(kind: KwargKind, value: unknown): string {
  if (value === undefined) return ''
  if (value === null) return 'null'
  if (kind === 'lines' && Array.isArray(value)) return value.join('\n')
  if (typeof value === 'string' && kind !== 'json') return value
  return JSON.stringify(value)
}

/** The fields of a kwargs schema, in its order. A schema that is not an object of properties gives none. */
export function kwargFields(schema: unknown): KwargField[] {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [])
  return Object.entries(schema.properties).map(([name, raw]) => {
    const prop = isObject(raw) ? raw : {}
    const types = typesOf(prop)
    const kind = kindOf(prop, types)
    return {
      name,
      kind,
      nullable: types.includes('null'),
      required: required.has(name),
      options: kind === 'enum' ? (prop.enum as string[]) : [],
      description: typeof prop.description === 'string' ? prop.description : '',
      placeholder: shown(kind, prop.default),
      minimum: typeof prop.minimum === 'number' ? prop.minimum : null,
      maximum: typeof prop.maximum === 'number' ? prop.maximum : null,
    }
  })
}

/** One field's draft as a value, or why it is not one. Empty: left out (undefined). */
export function kwargValue(field: KwargField, draft: string): { value?: unknown; issue?: string } {
  const text = draft.trim()
  if (text === '') return field.required ? { issue: 'required' } : {}
  if (text === 'null' && field.nullable && field.kind !== 'string' && field.kind !== 'lines') return { value: null }
  switch (field.kind) {
    case 'integer':
    case 'number': {
      const n = Number(text)
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
        return { issue: `must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}` }
      if (field.minimum !== null && n < field.minimum) return { issue: `must be at least ${field.minimum}` }
      if (field.maximum !== null && n > field.maximum) return { issue: `must be at most ${field.maximum}` }
      return { value: n }
    }
    case 'boolean':
      return text === 'true' ? { value: true } : text === 'false' ? { value: false } : { issue: 'must be true or false' }
    case 'enum':
      return field.options.includes(text) ? { value: text } : { issue: `must be one of ${field.options.join(', ')}` }
    case 'string':
      return { value: draft }
    case 'lines':
      return {
        value: draft
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== ''),
      }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown }
      } catch {
        return { issue: 'must be JSON' }
      }
  }
}

/** The kwargs the drafts give (empty fields left out) and the issues by field name. */
export function kwargsOf(
  fields: readonly KwargField[],
  drafts: Readonly<Record<string, string>>,
): { kwargs: Record<string, unknown>; issues: Record<string, string> } {
  const kwargs: Record<string, unknown> = {}
  const issues: Record<string, string> = {}
  for (const f of fields) {
    const { value, issue } = kwargValue(f, drafts[f.name] ?? '')
    if (issue !== undefined) issues[f.name] = issue
    else if (value !== undefined) kwargs[f.name] = value
  }
  return { kwargs, issues }
}
