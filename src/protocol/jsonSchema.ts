/**
 * The protocol's machine-readable form: JSON Schema (draft 2020-12) generated
 * from the zod schemas, so other languages validate against the same truth.
 * The Python bridge ships it as `redscope_bridge/protocol.schema.json`; a unit
 * test fails when that copy is stale (regenerate: `npm run protocol-schema`).
 *
 * The Optimizer-over-HTTP protocol gets its own document the same way
 * (`optimizer_protocol.schema.json`).
 *
 * Generated for what a sender may write (zod's input side: defaults may be
 * left out). Cross-field rules (a paused step carries its pause, tags named by
 * surfaces exist in the forest) are checks in code on both sides, not schema.
 */
import { z } from 'zod'
import {
  ConfigBodySchema,
  EmptyBodySchema,
  ErrorBodySchema,
  ManifestSchema,
  PROTOCOL_VERSION,
  QueryAnswerSchema,
  QueryBodySchema,
  ResponseBodySchema,
  RunStepSchema,
  SessionCreatedSchema,
  SessionObservablesSchema,
  TaskBodySchema,
} from './schemas'
import {
  EventAnswerSchema,
  EventBodySchema,
  KwargsAnswerSchema,
  KwargsBodySchema,
  OPTIMIZER_PROTOCOL_VERSION,
  OpenSessionBodySchema,
  OptimizerManifestSchema,
  SessionClosedSchema,
  SessionOpenedSchema,
} from './optimizer/schemas'

/** Every message of the protocol by name: the `$defs` of the document. */
export const PROTOCOL_MESSAGES = {
  Manifest: ManifestSchema,
  SessionCreated: SessionCreatedSchema,
  SessionObservables: SessionObservablesSchema,
  EmptyBody: EmptyBodySchema,
  ConfigBody: ConfigBodySchema,
  TaskBody: TaskBodySchema,
  QueryBody: QueryBodySchema,
  QueryAnswer: QueryAnswerSchema,
  RunStep: RunStepSchema,
  ResponseBody: ResponseBodySchema,
  ErrorBody: ErrorBodySchema,
} as const

/** Every message of the Optimizer-over-HTTP protocol by name (docs/optimizer-protocol.md). */
export const OPTIMIZER_PROTOCOL_MESSAGES = {
  OptimizerManifest: OptimizerManifestSchema,
  OpenSessionBody: OpenSessionBodySchema,
  SessionOpened: SessionOpenedSchema,
  EventBody: EventBodySchema,
  EventAnswer: EventAnswerSchema,
  SessionClosed: SessionClosedSchema,
  KwargsBody: KwargsBodySchema,
  KwargsAnswer: KwargsAnswerSchema,
  ErrorBody: ErrorBodySchema,
} as const

export const PROTOCOL_SCHEMA_PATH = 'python/src/redscope_bridge/protocol.schema.json'
export const OPTIMIZER_PROTOCOL_SCHEMA_PATH = 'python/src/redscope_bridge/optimizer_protocol.schema.json'

function jsonSchemaOf(messages: Record<string, z.ZodType>, version: string, title: string): Record<string, unknown> {
  const defs: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(messages)) {
    const def = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>
    delete def.$schema
    defs[name] = def
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:redscope:${version}`,
    title,
    $defs: defs,
  }
}

export function protocolJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(
    PROTOCOL_MESSAGES,
    PROTOCOL_VERSION,
    `Target-over-HTTP protocol (${PROTOCOL_VERSION}), generated from src/protocol/schemas.ts: do not edit`,
  )
}

export function optimizerProtocolJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(
    OPTIMIZER_PROTOCOL_MESSAGES,
    OPTIMIZER_PROTOCOL_VERSION,
    `Optimizer-over-HTTP protocol (${OPTIMIZER_PROTOCOL_VERSION}), generated from src/protocol/optimizer/schemas.ts: do not edit`,
  )
}

/** The file's exact text (2-space indent, trailing newline), so the staleness check is a string compare. */
export function protocolJsonSchemaText(): string {
  return `${JSON.stringify(protocolJsonSchema(), null, 2)}\n`
}

export function optimizerProtocolJsonSchemaText(): string {
  return `${JSON.stringify(optimizerProtocolJsonSchema(), null, 2)}\n`
}
