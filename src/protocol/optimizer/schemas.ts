/**
 * The Optimizer-over-HTTP protocol v1 as zod schemas: the single source of
 * truth for every message (docs/optimizer-protocol.md). It mirrors superred's
 * Optimizer lifecycle: one session is one task's optimizer (the factory's
 * call and `initialize`), each event is one `channel.send`, closing is the
 * Controller's `finally` (channel closed, run awaited, `teardown`).
 *
 * Observations are never events: as in superred, the optimizer reads them on
 * its view of the run, which travels as the items the view gained since the
 * previous message. The generated JSON Schema is what the Python bridge
 * validates against (python/src/redscope_bridge/optimizer_protocol.schema.json).
 */
import { z } from 'zod'
import { EVENT_ID_PATTERN, EvaluationWireSchema, ManifestTagSchema, TIMESTAMP_PATTERN } from '../schemas'

export const OPTIMIZER_PROTOCOL_NAME = 'superred-optimizer-http'
export const OPTIMIZER_PROTOCOL_MAJOR = 1
export const OPTIMIZER_PROTOCOL_VERSION = `${OPTIMIZER_PROTOCOL_NAME}/${OPTIMIZER_PROTOCOL_MAJOR}`

const PROTOCOL_PATTERN = /^superred-optimizer-http\/(\d+)(?:\.\d+)*$/

/** The major version of a protocol string, or null when it is not this protocol at all. */
export function optimizerProtocolMajor(protocol: string): number | null {
  const m = PROTOCOL_PATTERN.exec(protocol)
  return m ? Number(m[1]) : null
}

const name = z.string().min(1, 'must be a non-empty name')
const tagName = z.string().min(1, 'must be a tag name')
const eventId = z.string().regex(EVENT_ID_PATTERN, 'must be a UUID')
const timestamp = z.string().regex(TIMESTAMP_PATTERN, 'must be a naive local ISO time (YYYY-MM-DDTHH:MM:SS[.ffffff])')
const money = z.number().min(0, 'must not be negative')

/** Cumulative LLM usage of a session's client: what superred's `LLMClient.usage` says. */
export const UsageWireSchema = z.object({
  calls: z.number().int().min(0),
  cost: money,
})

/** One completion the optimizer's LLM answered while the server handled a message: its reply is the attacker's own words. */
export const LlmCallWireSchema = z.object({
  reply: z.string().nullable(),
  prompt_tokens: z.number().int().min(0).optional().default(0),
  completion_tokens: z.number().int().min(0).optional().default(0),
})

// ---------------------------------------------------------------------------
// The list of served optimizers

export const ServedLlmSchema = z.object({
  /** The model the server's client calls (never its base URL or key). */
  model: name,
})

export const ServedOptimizerSchema = z.object({
  name,
  /** `module:Class` as the server loaded it. */
  ref: z.string().optional().default(''),
  description: z.string().optional().default(''),
  /** The distribution's version, when the server knows it. */
  version: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  /** A JSON Schema (draft 2020-12) of the keyword arguments a session may pass. */
  kwargs_schema: z.record(z.string(), z.unknown()),
  /** The server's own keyword arguments, under the session's. */
  kwargs: z.record(z.string(), z.unknown()).optional().default({}),
  /** The LLM client the server builds for each session, or null: the optimizer gets superred's zero-budget client. */
  llm: ServedLlmSchema.nullable()
    .optional()
    .transform((l) => l ?? null),
})

export const OptimizerManifestSchema = z
  .object({
    protocol: z.string().superRefine((p, ctx) => {
      if (optimizerProtocolMajor(p) !== OPTIMIZER_PROTOCOL_MAJOR) {
        ctx.addIssue({
          code: 'custom',
          message: `is ${JSON.stringify(p)}, but this client speaks ${OPTIMIZER_PROTOCOL_VERSION} (major ${OPTIMIZER_PROTOCOL_MAJOR}) only`,
        })
      }
    }),
    optimizers: z.array(ServedOptimizerSchema),
    /** Sessions open at once; more get 503 `capacity`. */
    concurrency: z.number().int().min(1, 'must be at least 1').optional().default(1),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>()
    m.optimizers.forEach((o, i) => {
      if (seen.has(o.name)) ctx.addIssue({ code: 'custom', message: `duplicate name '${o.name}'`, path: ['optimizers', i, 'name'] })
      seen.add(o.name)
    })
  })

// ---------------------------------------------------------------------------
// Surfaces and items, as the optimizer sees them (tags by name)

export const ControllableWireSchema = z.object({
  name,
  security_domain: tagName,
  description: z.string().optional().default(''),
  value_type: z.string().optional().default('text'),
})

export const ObservableWireSchema = z.object({
  name,
  security_domain: tagName,
  description: z.string().optional().default(''),
  observable_type: z.string().optional().default('text'),
})

export const OfferedObservableSchema = ObservableWireSchema.extend({
  content: z
    .unknown()
    .optional()
    .transform((c) => c ?? null),
})

const itemBase = { event_id: eventId, timestamp }

export const ObservableItemSchema = z.object({
  type: z.literal('ObservableEvent'),
  ...itemBase,
  security_domain: tagName,
  observable: ObservableWireSchema,
  content: z
    .unknown()
    .optional()
    .transform((c) => c ?? null),
})

export const PreCallItemSchema = z.object({
  type: z.literal('ControllablePreCallEvent'),
  ...itemBase,
  security_domain: tagName,
  controllable: ControllableWireSchema,
  request: z.string(),
})

export const PostCallItemSchema = PreCallItemSchema.extend({
  type: z.literal('ControllablePostCallEvent'),
  answer: z.string(),
})

export const RunEndItemSchema = z.object({
  type: z.literal('RunEndEvent'),
  ...itemBase,
  security_domain: tagName,
  /** Scope-filtered, or null when the Controller gives no feedback. */
  evaluation: EvaluationWireSchema.nullable(),
})

/** A response on the view, naming the event it answered (earlier in the same run). */
export const InjectionItemSchema = z.object({
  type: z.literal('ControllableInjection'),
  event_id: eventId,
  value: z.string(),
})

export const NoInjectionItemSchema = z.object({
  type: z.literal('ControllableNoInjection'),
  event_id: eventId,
  declined_by: z.enum(['scope', 'optimizer']).optional().default('optimizer'),
})

/** What a run's view holds: events and the controllable responses, in emit order. */
export const TrajectoryItemSchema = z.discriminatedUnion('type', [
  ObservableItemSchema,
  PreCallItemSchema,
  PostCallItemSchema,
  RunEndItemSchema,
  InjectionItemSchema,
  NoInjectionItemSchema,
])

export const RunStartWireSchema = z.object({ type: z.literal('RunStartEvent'), ...itemBase })

/** The events an optimizer answers (never an observation). */
export const OptimizerEventSchema = z.discriminatedUnion('type', [
  RunStartWireSchema,
  PreCallItemSchema,
  PostCallItemSchema,
  RunEndItemSchema,
])

// ---------------------------------------------------------------------------
// Requests

/** `POST /optimizer-sessions`: the factory's call and `initialize(goal, controllables, observables, llm)`. */
export const OpenSessionBodySchema = z.object({
  optimizer: name,
  kwargs: z.record(z.string(), z.unknown()).optional().default({}),
  goal: z.object({ description: z.string() }),
  /**
   * Every tag this message names, ancestors before descendants (the whole forest will do): the server builds each
   * tag once with its parent, and the same name is the same object for the whole session (superred matches tags by
   * identity, and compares controllables with their tag chains).
   */
  security_domain: z.array(ManifestTagSchema),
  /** The injectable surfaces (write scope), as the Controller offers them. */
  controllables: z.array(ControllableWireSchema),
  /** The visible surfaces, read-only controllables included with content null. */
  observables: z.array(OfferedObservableSchema),
  /** The per-task cap of the server's LLM client (superred's task_cost_cap_usd); null: unlimited. */
  task_cost_cap_usd: money
    .nullable()
    .optional()
    .transform((c) => c ?? null),
})

/**
 * `POST /optimizer-sessions/{sid}/events`: one `channel.send(event)`. `trajectory` holds the items the run's
 * view gained since the previous message and before this event; the server puts them on its copy of the view,
 * then the event itself when the view records it (a pre/post-call or a RunEnd, as superred records them before
 * sending), then hands the event to the optimizer.
 */
export const EventBodySchema = z.object({
  /** Tags this message names that no earlier message of the session did, ancestors first (as when opening). */
  security_domain: z.array(ManifestTagSchema).optional().default([]),
  event: OptimizerEventSchema,
  trajectory: z.array(TrajectoryItemSchema).optional().default([]),
})

/** `POST /optimizers/{name}/kwargs`: checks keyword arguments as a session would, without opening one. */
export const KwargsBodySchema = z.object({
  kwargs: z.record(z.string(), z.unknown()).optional().default({}),
})

// ---------------------------------------------------------------------------
// Answers

export const SessionOpenedSchema = z.object({
  session_id: name,
  usage: UsageWireSchema,
  llm_calls: z.array(LlmCallWireSchema).optional().default([]),
})

export const EventAnswerResponseSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EventResponse') }),
  z.object({ type: z.literal('ControllableInjection'), value: z.string() }),
  z.object({ type: z.literal('ControllableNoInjection') }),
  z.object({ type: z.literal('RunEndResponse'), done: z.boolean() }),
])

/**
 * The optimizer's answer with the session's cumulative usage (read after every run, as superred's Controller
 * snapshots it) and the LLM completions made while handling this event.
 */
export const EventAnswerSchema = z.object({
  response: EventAnswerResponseSchema,
  usage: UsageWireSchema,
  llm_calls: z.array(LlmCallWireSchema).optional().default([]),
})

/** `DELETE /optimizer-sessions/{sid}`: usage at the end and what the optimizer's run raised after the last event, if anything. */
export const SessionClosedSchema = z.object({
  usage: UsageWireSchema,
  error: z
    .string()
    .nullable()
    .optional()
    .transform((e) => e ?? null),
  llm_calls: z.array(LlmCallWireSchema).optional().default([]),
})

export const KwargsAnswerSchema = z.object({
  /** The kwargs a session would construct the optimizer with: the server's under the given ones. */
  kwargs: z.record(z.string(), z.unknown()),
})

/**
 * Codes the reference server uses besides the target protocol's shared ones (bad_request, unauthorized,
 * not_found, method_not_allowed, payload_too_large, forbidden_host, unknown_session, capacity, internal).
 */
export const OPTIMIZER_ERROR_CODES = [
  'unknown_optimizer',
  'invalid_kwargs',
  'optimizer_error',
  'budget_exhausted',
  'session_failed',
  'busy',
  'no_run',
] as const
export type OptimizerErrorCode = (typeof OPTIMIZER_ERROR_CODES)[number]

export type UsageWire = z.infer<typeof UsageWireSchema>
export type LlmCallWire = z.infer<typeof LlmCallWireSchema>
export type ServedOptimizer = z.infer<typeof ServedOptimizerSchema>
export type OptimizerManifest = z.infer<typeof OptimizerManifestSchema>
export type ControllableWire = z.input<typeof ControllableWireSchema>
export type ObservableWire = z.input<typeof ObservableWireSchema>
export type TrajectoryItemWire = z.input<typeof TrajectoryItemSchema>
export type OptimizerEventWire = z.input<typeof OptimizerEventSchema>
export type OpenSessionBody = z.input<typeof OpenSessionBodySchema>
export type EventBody = z.input<typeof EventBodySchema>
export type SessionOpened = z.infer<typeof SessionOpenedSchema>
export type EventAnswer = z.infer<typeof EventAnswerSchema>
export type SessionClosed = z.infer<typeof SessionClosedSchema>
