/**
 * Hand-written readers for the messages every protocol step carries: the
 * RunStep the client reads and the response and `{}` bodies the server reads.
 * zod's generic walk over these was the largest share of a step that plain
 * HTTP does not have (issue 15's profile). Each reader accepts only the plain,
 * valid form of its message and returns exactly what the zod schema would
 * (same fields, defaults, order); anything else (a missing field, a wrong
 * type, an evaluation, an error object) returns undefined, and the schema
 * itself then decides, so every malformed message still gets zod's message
 * with the path to the bad field. hotMessages.test.ts holds the two to the
 * same answers.
 */
import type { z } from 'zod'
import {
  EmptyBodySchema,
  TIMESTAMP_PATTERN,
  ResponseBodySchema,
  RunStepSchema,
  EVENT_ID_PATTERN,
  type Pause,
  type PauseDescriptor,
  type ResponseBody,
  type RunEvent,
  type RunStep,
} from './schemas'

type JsonObject = Record<string, unknown>

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** `z.string().optional().default(d)`: undefined when the value breaks the schema. */
function textOr(v: unknown, fallback: string): string | undefined {
  return v === undefined ? fallback : typeof v === 'string' ? v : undefined
}

/**
 * The event ids and timestamps the schemas keep when well-formed and drop otherwise
 * (`.optional().catch(undefined)`): a key the message has stays, as undefined when bad.
 */
function copyIdAndTime(from: JsonObject, to: Record<string, unknown>): void {
  if ('event_id' in from) {
    const id = from.event_id
    to.event_id = typeof id === 'string' && EVENT_ID_PATTERN.test(id) ? id : undefined
  }
  if ('timestamp' in from) {
    const t = from.timestamp
    to.timestamp = typeof t === 'string' && TIMESTAMP_PATTERN.test(t) ? t : undefined
  }
}

function readEvent(e: unknown): RunEvent | undefined {
  if (!isObject(e) || e.type !== 'ObservableEvent') return undefined
  const o = e.observable
  if (!isObject(o) || !isName(o.name)) return undefined
  const domain = o.security_domain
  if (domain !== null && !isName(domain)) return undefined
  const description = textOr(o.description, '')
  const observableType = textOr(o.observable_type, 'text')
  if (description === undefined || observableType === undefined) return undefined
  const event: RunEvent = {
    type: 'ObservableEvent',
    observable: { name: o.name, security_domain: domain, description, observable_type: observableType },
    content: e.content ?? null,
  }
  if ('security_domain' in e) {
    const own = e.security_domain
    if (own !== undefined && own !== null && !isName(own)) return undefined
    event.security_domain = own as string | null | undefined
  }
  copyIdAndTime(e, event as Record<string, unknown>)
  return event
}

function readDescriptor(d: unknown): PauseDescriptor | undefined {
  if (!isObject(d) || !isName(d.security_domain)) return undefined
  const description = textOr(d.description, '')
  const valueType = textOr(d.value_type, 'text')
  if (description === undefined || valueType === undefined) return undefined
  return { security_domain: d.security_domain, description, value_type: valueType }
}

function readPause(p: unknown): Pause | undefined {
  if (!isObject(p)) return undefined
  const type = p.type
  if (type !== 'ControllablePreCallEvent' && type !== 'ControllablePostCallEvent') return undefined
  if (!isName(p.call_id) || !isName(p.controllable) || typeof p.request !== 'string') return undefined
  // Built in the schema's field order, optional fields only when the message has them, as zod does.
  const pause: Record<string, unknown> = { call_id: p.call_id, type, controllable: p.controllable, request: p.request }
  if ('descriptor' in p) {
    const descriptor = p.descriptor === undefined ? undefined : readDescriptor(p.descriptor)
    if (descriptor === undefined && p.descriptor !== undefined) return undefined
    pause.descriptor = descriptor
  }
  copyIdAndTime(p, pause)
  if (type === 'ControllablePostCallEvent') {
    if (typeof p.answer !== 'string') return undefined
    pause.answer = p.answer
  }
  return pause as unknown as Pause
}

/** RunStepSchema's answer for a plain step (no evaluation, a string error if any), else undefined. */
export function readRunStep(json: unknown): RunStep | undefined {
  if (!isObject(json) || !isName(json.run_id)) return undefined
  const status = json.status
  if (status !== 'paused' && status !== 'finished' && status !== 'failed') return undefined
  let events: RunEvent[]
  if (json.events === undefined) events = []
  else if (Array.isArray(json.events)) {
    events = new Array<RunEvent>(json.events.length)
    for (let i = 0; i < events.length; i++) {
      const event = readEvent(json.events[i])
      if (event === undefined) return undefined
      events[i] = event
    }
  } else return undefined
  let pause: Pause | null = null
  if (json.pause !== undefined && json.pause !== null) {
    const read = readPause(json.pause)
    if (read === undefined) return undefined
    pause = read
  }
  const error = json.error ?? null
  const evaluationError = json.evaluation_error ?? null
  if ((error !== null && typeof error !== 'string') || (evaluationError !== null && typeof evaluationError !== 'string')) return undefined
  // An evaluation is rare (a served task's finished run) and has its own nesting: zod reads it.
  if (json.evaluation !== undefined && json.evaluation !== null) return undefined
  // The schema's cross-field rules: broken, zod says which one.
  if ((status === 'paused') !== (pause !== null) || (status === 'failed' && error === null)) return undefined
  return { run_id: json.run_id, events, status, pause, error, evaluation: null, evaluation_error: evaluationError }
}

/** ResponseBodySchema's answer for a well-formed response body, else undefined. */
export function readResponseBody(json: unknown): ResponseBody | undefined {
  if (!isObject(json) || !isName(json.call_id) || !isObject(json.response)) return undefined
  const r = json.response
  if (r.type === 'ControllableInjection') {
    return typeof r.value === 'string' ? { call_id: json.call_id, response: { type: r.type, value: r.value } } : undefined
  }
  if (r.type !== 'ControllableNoInjection') return undefined
  // Only an absent field defaults: null breaks the schema.
  const declinedBy = r.declined_by === undefined ? 'optimizer' : r.declined_by
  if (declinedBy !== 'scope' && declinedBy !== 'optimizer') return undefined
  return { call_id: json.call_id, response: { type: r.type, declined_by: declinedBy } }
}

/** EmptyBodySchema's answer (a fresh `{}`) for any object, else undefined. */
export function readEmptyBody(json: unknown): Record<string, never> | undefined {
  return isObject(json) ? {} : undefined
}

const READERS = new Map<z.ZodType, (json: unknown) => unknown>([
  [RunStepSchema, readRunStep],
  [ResponseBodySchema, readResponseBody],
  [EmptyBodySchema, readEmptyBody],
])

/** `schema.safeParse(json)`, through the schema's hand-written reader when it has one and the message fits it. */
export function parseWire<S extends z.ZodType>(schema: S, json: unknown): z.ZodSafeParseResult<z.infer<S>> {
  const read = READERS.get(schema)
  const data = read === undefined ? undefined : read(json)
  return data === undefined ? schema.safeParse(json) : { success: true, data: data as z.infer<S> }
}
