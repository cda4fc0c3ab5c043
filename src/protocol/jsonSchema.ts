/**
 * The protocol's machine-readable form: JSON Schema (draft 2020-12) generated
 * from the zod schemas, so other languages validate against the same truth.
 * The Python bridge ships it as `redscope_bridge/protocol.schema.json`; a unit
 * test fails when that copy is stale (regenerate: `npm run protocol-schema`).
 *
 * Generated for what a sender may write (zod's input side: defaults may be
 * left out). Cross-field rules (a paused step carries its pause, tags named by
 * surfaces exist in the forest) are checks in code on both sides, not schema.
 */
import { z } from 'zod'
import {
  ConfigBodySchema, EmptyBodySchema, ErrorBodySchema, ManifestSchema, PROTOCOL_VERSION, QueryAnswerSchema, QueryBodySchema,
  ResponseBodySchema, RunStepSchema, SessionCreatedSchema, SessionObservablesSchema, TaskBodySchema,
} from './schemas'

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

export const PROTOCOL_SCHEMA_PATH = 'python/src/redscope_bridge/protocol.schema.json'

export function protocolJsonSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(PROTOCOL_MESSAGES)) {
    const def = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>
    delete def.$schema
    defs[name] = def
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:redscope:${PROTOCOL_VERSION}`,
    title: `Target-over-HTTP protocol (${PROTOCOL_VERSION}), generated from src/protocol/schemas.ts: do not edit`,
    $defs: defs,
  }
}

/** The file's exact text (2-space indent, trailing newline), so the staleness check is a string compare. */
export function protocolJsonSchemaText(): string {
  return `${JSON.stringify(protocolJsonSchema(), null, 2)}\n`
}
