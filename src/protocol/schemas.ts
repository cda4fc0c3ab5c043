/**
 * The Target-over-HTTP protocol v1 as zod schemas: the single source of truth
 * for every message (docs/target-protocol.md). Both the client (HttpTarget)
 * and the server library parse what they receive with these, so a malformed
 * message is refused at the edge with a path to the bad field. Objects strip
 * unknown fields, as the protocol asks ("unknown fields are ignored").
 */
import { z } from 'zod'
import { ReferenceIdSchema } from '../core/compliance/references'
import { buildDomain, SecurityDomainError, type Forest } from '../core/tags'

export const PROTOCOL_NAME = 'superred-target-http'
export const PROTOCOL_MAJOR = 1
/** What this implementation announces in its manifests. */
export const PROTOCOL_VERSION = `${PROTOCOL_NAME}/${PROTOCOL_MAJOR}`

const PROTOCOL_PATTERN = /^superred-target-http\/(\d+)(?:\.\d+)*$/

/** The major version of a protocol string, or null when it is not this protocol at all. */
export function protocolMajor(protocol: string): number | null {
  const m = PROTOCOL_PATTERN.exec(protocol)
  return m ? Number(m[1]) : null
}

const name = z.string().min(1, 'must be a non-empty name')
/** A tag name, or null: tags travel by name (draft: "Tags travel by name"). */
const tagRef = z.string().min(1, 'must be a tag name').nullable()

// ---------------------------------------------------------------------------
// Manifest

export const ManifestTagSchema = z.object({
  name,
  // An omitted parent means a root, as in FOREST.json files.
  parent: z
    .string()
    .nullable()
    .optional()
    .transform((p) => p ?? null),
  description: z.string().optional().default(''),
  // Addition: framework references of the tag (docs/target-protocol.md), checked against the one list.
  references: z.array(ReferenceIdSchema).optional(),
})

export const ControllableSpecSchema = z.object({
  name,
  security_domain: z.string().min(1, 'must be a tag name'),
  description: z.string().optional().default(''),
  value_type: z.string().optional().default('text'),
})

/** An observable's descriptor, as it travels in the manifest and in every ObservableEvent. */
export const ObservableSpecSchema = z.object({
  name,
  // Null is allowed on a runtime observable when the event carries its own domain.
  security_domain: tagRef,
  description: z.string().optional().default(''),
  observable_type: z.string().optional().default('text'),
})

export const ManifestObservableSchema = ObservableSpecSchema.extend({
  security_domain: z.string().min(1, 'must be a tag name'),
  content: z
    .unknown()
    .optional()
    .transform((c) => c ?? null),
})

export const ConfigSpecSchema = z.object({
  name,
  security_domain: tagRef.optional().transform((d) => d ?? null),
  description: z.string().optional().default(''),
})

export const QueryParamSchema = z.object({ name, description: z.string().optional().default('') })

export const QuerySpecSchema = z.object({
  name,
  description: z.string().optional().default(''),
  params: z.array(QueryParamSchema).optional().default([]),
})

/**
 * Addition: a superred claim served beside its target (`redscope-bridge serve --claim`). Its tasks are
 * numbered from 1 in this order; a session is configured by one with `POST /sessions/{sid}/task`, and each
 * of its finished runs is evaluated on the server by that task's own code (RunStep `evaluation`).
 */
export const ManifestClaimTaskSchema = z.object({
  goal: z.string().min(1, 'must describe the goal'),
  references: z.array(ReferenceIdSchema).optional(),
})
/**
 * The config and query through which older claim files reach the served claim (`superred_task`,
 * `superred_evaluation` on the bridge). They are listed in `config_specs`/`query_specs` so those clients keep
 * working, and named here so that a client can tell them from the target's own.
 */
export const ManifestClaimHooksSchema = z.object({ config: name.optional(), query: name.optional() })
export const ManifestClaimSchema = z.object({
  name,
  description: z.string().optional().default(''),
  // Addition: framework references of the claim as a whole; each task's own add to them.
  references: z.array(ReferenceIdSchema).optional(),
  tasks: z.array(ManifestClaimTaskSchema).min(1, 'a served claim has at least one task'),
  hooks: ManifestClaimHooksSchema.optional().default({}),
})

export const ManifestSchema = z
  .object({
    protocol: z.string().superRefine((p, ctx) => {
      if (protocolMajor(p) !== PROTOCOL_MAJOR) {
        ctx.addIssue({
          code: 'custom',
          message: `is ${JSON.stringify(p)}, but this client speaks ${PROTOCOL_VERSION} (major ${PROTOCOL_MAJOR}) only`,
        })
      }
    }),
    name,
    description: z.string().optional().default(''),
    security_domain: z.array(ManifestTagSchema),
    controllables: z.array(ControllableSpecSchema),
    observables: z.array(ManifestObservableSchema),
    config_specs: z.array(ConfigSpecSchema).optional().default([]),
    query_specs: z.array(QuerySpecSchema).optional().default([]),
    // Addition: optional, 1 when absent (a server that says nothing gets one session at a time).
    concurrency: z.number().int().min(1, 'must be at least 1').optional().default(1),
    // Addition: the claim served with the target; null when the server judges nothing itself.
    claim: ManifestClaimSchema.nullable()
      .optional()
      .transform((c) => c ?? null),
  })
  .superRefine((m, ctx) => {
    // The forest must build exactly as superred's SecurityDomain would, and every
    // surface must point at one of its tags: otherwise scopes cannot cover it.
    try {
      buildDomain(forestFromManifest(m))
    } catch (e) {
      if (!(e instanceof SecurityDomainError)) throw e
      const at = m.security_domain.findIndex((t) => t.name === e.tag)
      ctx.addIssue({ code: 'custom', message: e.message, path: ['security_domain', Math.max(at, 0)] })
      return
    }
    const tags = new Set(m.security_domain.map((t) => t.name))
    const check = (list: 'controllables' | 'observables' | 'config_specs', i: number, tag: string | null) => {
      if (tag !== null && !tags.has(tag)) {
        ctx.addIssue({ code: 'custom', message: `tag '${tag}' is not in security_domain`, path: [list, i, 'security_domain'] })
      }
    }
    m.controllables.forEach((c, i) => check('controllables', i, c.security_domain))
    m.observables.forEach((o, i) => check('observables', i, o.security_domain))
    m.config_specs.forEach((c, i) => check('config_specs', i, c.security_domain))
    const unique = (list: 'controllables' | 'observables' | 'config_specs' | 'query_specs', names: string[]) => {
      const seen = new Set<string>()
      names.forEach((n, i) => {
        if (seen.has(n)) ctx.addIssue({ code: 'custom', message: `duplicate name '${n}'`, path: [list, i, 'name'] })
        seen.add(n)
      })
    }
    unique(
      'controllables',
      m.controllables.map((c) => c.name),
    )
    unique(
      'observables',
      m.observables.map((o) => o.name),
    )
    unique(
      'config_specs',
      m.config_specs.map((c) => c.name),
    )
    unique(
      'query_specs',
      m.query_specs.map((q) => q.name),
    )
    const hooks = m.claim?.hooks
    if (hooks?.config !== undefined && !m.config_specs.some((c) => c.name === hooks.config)) {
      ctx.addIssue({ code: 'custom', message: `config '${hooks.config}' is not in config_specs`, path: ['claim', 'hooks', 'config'] })
    }
    if (hooks?.query !== undefined && !m.query_specs.some((q) => q.name === hooks.query)) {
      ctx.addIssue({ code: 'custom', message: `query '${hooks.query}' is not in query_specs`, path: ['claim', 'hooks', 'query'] })
    }
  })

export type ManifestTag = z.infer<typeof ManifestTagSchema>
export type ManifestClaim = z.infer<typeof ManifestClaimSchema>
export type ControllableSpec = z.infer<typeof ControllableSpecSchema>
export type ObservableSpec = z.infer<typeof ObservableSpecSchema>
export type ManifestObservable = z.infer<typeof ManifestObservableSchema>
export type ConfigSpecWire = z.infer<typeof ConfigSpecSchema>
export type QuerySpecWire = z.infer<typeof QuerySpecSchema>
export type Manifest = z.infer<typeof ManifestSchema>
/** What a server may write (defaults may be left out). */
export type ManifestInput = z.input<typeof ManifestSchema>

/** The manifest's tags as a plain forest (FOREST.json shape), order kept. */
export function forestFromManifest(manifest: Pick<Manifest, 'security_domain'>): Forest {
  return {
    tags: manifest.security_domain.map((t) => ({
      name: t.name,
      parent: t.parent ?? null,
      description: t.description ?? '',
      ...(t.references && t.references.length > 0 ? { references: [...t.references] } : {}),
    })),
  }
}

// ---------------------------------------------------------------------------
// Runs

// Ids and times end up in results files: anything else is dropped, not trusted.
export const EVENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?$/

export const ObservableEventWireSchema = z.object({
  type: z.literal('ObservableEvent'),
  observable: ObservableSpecSchema,
  content: z
    .unknown()
    .optional()
    .transform((c) => c ?? null),
  /** Overrides the observable's domain when present. */
  security_domain: tagRef.optional(),
  /** Addition: the server's event id (a uuid), kept on the client's trajectory when valid. */
  event_id: z.string().regex(EVENT_ID_PATTERN).optional().catch(undefined),
  /** Addition: the server's naive local ISO timestamp, kept when valid. */
  timestamp: z.string().regex(TIMESTAMP_PATTERN).optional().catch(undefined),
})
/** Only observations travel in `events`; pauses travel in `pause`. */
export const RunEventSchema = z.discriminatedUnion('type', [ObservableEventWireSchema])

/**
 * Addition: the controllable as the target built it for this call. superred
 * targets may pause with a Controllable other than the one their
 * get_controllables() lists (another description, even another tag); the
 * client records this one, as superred's Controller would.
 */
export const PauseDescriptorSchema = z.object({
  security_domain: z.string().min(1, 'must be a tag name'),
  description: z.string().optional().default(''),
  value_type: z.string().optional().default('text'),
})

export const PreCallPauseSchema = z.object({
  call_id: name,
  type: z.literal('ControllablePreCallEvent'),
  controllable: name,
  request: z.string(),
  descriptor: PauseDescriptorSchema.optional(),
  /** Addition: the server's event id and timestamp, kept when well-formed (as on events). */
  event_id: z.string().regex(EVENT_ID_PATTERN).optional().catch(undefined),
  timestamp: z.string().regex(TIMESTAMP_PATTERN).optional().catch(undefined),
})
export const PostCallPauseSchema = PreCallPauseSchema.extend({
  type: z.literal('ControllablePostCallEvent'),
  answer: z.string(),
})
export const PauseSchema = z.discriminatedUnion('type', [PreCallPauseSchema, PostCallPauseSchema])

export const RunStatusSchema = z.enum(['paused', 'finished', 'failed'])

/** A superred Score as it travels: its tag by name (null: no domain). */
export const ScoreWireSchema = z.object({
  name: z.string().optional().default('primary'),
  value: z.number(),
  security_domain: tagRef.optional().transform((d) => d ?? null),
})
/** Addition: a superred EvaluationResult as the served task's `evaluate` returned it. */
export const EvaluationWireSchema = z.object({
  success: z.boolean(),
  primary_score: ScoreWireSchema,
  sub_scores: z.record(z.string(), ScoreWireSchema).optional().default({}),
  rationale: z.string().optional().default(''),
  /** Addition: what the task's check matched (a text or a list), for redscope's echo check; absent: unknown. */
  evidence: z.union([z.string(), z.array(z.string())]).optional(),
})

export const RunStepSchema = z
  .object({
    run_id: name,
    events: z.array(RunEventSchema).optional().default([]),
    status: RunStatusSchema,
    pause: PauseSchema.nullable()
      .optional()
      .transform((p) => p ?? null),
    // A string; an {code, message} object is accepted too and read as its message.
    error: z
      .union([z.string(), z.object({ code: z.string().optional(), message: z.string() })])
      .nullable()
      .optional()
      .transform((e) => (e === undefined || e === null ? null : typeof e === 'string' ? e : e.message)),
    /** Addition: on a finished run of a session configured by a served task, that task's evaluation of it. */
    evaluation: EvaluationWireSchema.nullable()
      .optional()
      .transform((e) => e ?? null),
    /** Addition: instead of `evaluation`, when the task's `evaluate` raised ("<Type>: <message>"). */
    evaluation_error: z
      .string()
      .nullable()
      .optional()
      .transform((e) => e ?? null),
  })
  .superRefine((step, ctx) => {
    if (step.status === 'paused' && step.pause === null) {
      ctx.addIssue({ code: 'custom', message: 'a paused run must carry its pause', path: ['pause'] })
    }
    if (step.status !== 'paused' && step.pause !== null) {
      ctx.addIssue({ code: 'custom', message: `a ${step.status} run carries no pause`, path: ['pause'] })
    }
    if (step.status === 'failed' && step.error === null) {
      ctx.addIssue({ code: 'custom', message: 'a failed run must say why', path: ['error'] })
    }
  })

export type ObservableEventWire = z.infer<typeof ObservableEventWireSchema>
export type RunEvent = z.infer<typeof RunEventSchema>
export type PreCallPause = z.infer<typeof PreCallPauseSchema>
export type PostCallPause = z.infer<typeof PostCallPauseSchema>
export type Pause = z.infer<typeof PauseSchema>
export type PauseDescriptor = z.infer<typeof PauseDescriptorSchema>
export type RunStatus = z.infer<typeof RunStatusSchema>
export type RunStep = z.infer<typeof RunStepSchema>
export type EvaluationWire = z.infer<typeof EvaluationWireSchema>

// ---------------------------------------------------------------------------
// Requests

export const InjectionResponseSchema = z.object({ type: z.literal('ControllableInjection'), value: z.string() })
export const NoInjectionResponseSchema = z.object({
  type: z.literal('ControllableNoInjection'),
  declined_by: z.enum(['scope', 'optimizer']).optional().default('optimizer'),
})
export const ResponseSchema = z.discriminatedUnion('type', [InjectionResponseSchema, NoInjectionResponseSchema])
export const ResponseBodySchema = z.object({ call_id: name, response: ResponseSchema })

/** The `{}` bodies (POST /sessions, /runs, /reset): anything extra is ignored. */
export const EmptyBodySchema = z.object({})
export const ConfigBodySchema = z.object({ name, value: z.string() })
/** Addition: `POST /sessions/{sid}/task`, the served claim's task (1-based) that configures this session. */
export const TaskBodySchema = z.object({ task: z.number().int().min(1, 'tasks are numbered from 1') })
export const QueryBodySchema = z.object({
  name,
  params: z.record(z.string(), z.string()).optional().default({}),
})

export type WireResponse = z.infer<typeof ResponseSchema>
export type ResponseBody = z.infer<typeof ResponseBodySchema>
export type ConfigBody = z.infer<typeof ConfigBodySchema>
export type TaskBody = z.infer<typeof TaskBodySchema>
export type QueryBody = z.infer<typeof QueryBodySchema>

// ---------------------------------------------------------------------------
// Answers

export const SessionCreatedSchema = z.object({ session_id: name })
/**
 * Addition: `GET /sessions/{sid}/observables`, the session's static observables
 * now. superred targets may derive them from config (ChatbotTarget shows the
 * configured system prompt), and superred's Controller offers them after
 * `configure_target`; the manifest's are read before any config.
 */
export const SessionObservablesSchema = z.object({ observables: z.array(ManifestObservableSchema) })
export const QueryAnswerSchema = z.object({ value: z.string() })

/**
 * Codes the reference servers use; clients must accept any snake_case code.
 * The draft's: bad_request, unauthorized, unknown_session, unknown_config,
 * unknown_query, not_pending, capacity. The rest are additions.
 */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'unknown_session',
  'unknown_config',
  'unknown_query',
  'not_pending',
  'capacity',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'invalid_config',
  'run_active',
  'target_error',
  'internal',
  'forbidden_host',
  'missing_param',
  'not_applicable',
  'unknown_task',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.string().min(1), message: z.string().optional().default('') }),
})

export type SessionCreated = z.infer<typeof SessionCreatedSchema>
export type QueryAnswer = z.infer<typeof QueryAnswerSchema>
export type ErrorBody = z.infer<typeof ErrorBodySchema>
