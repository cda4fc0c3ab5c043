import { readFileSync } from 'node:fs'
import {
  OPTIMIZER_PROTOCOL_MESSAGES,
  OPTIMIZER_PROTOCOL_SCHEMA_PATH,
  PROTOCOL_MESSAGES,
  PROTOCOL_SCHEMA_PATH,
  optimizerProtocolJsonSchema,
  optimizerProtocolJsonSchemaText,
  protocolJsonSchema,
  protocolJsonSchemaText,
} from './jsonSchema'

describe('the protocol JSON Schema', () => {
  it('committed for the Python bridge is the one the zod schemas generate (else: npm run protocol-schema)', () => {
    const committed = readFileSync(PROTOCOL_SCHEMA_PATH, 'utf8')
    expect(committed, `${PROTOCOL_SCHEMA_PATH} is stale: run npm run protocol-schema and commit it`).toBe(protocolJsonSchemaText())
  })

  it('names every message and carries the additions (pause descriptor, event ids)', () => {
    const defs = protocolJsonSchema().$defs as Record<string, { properties?: Record<string, unknown> }>
    expect(Object.keys(defs).sort()).toEqual(Object.keys(PROTOCOL_MESSAGES).sort())
    expect(JSON.stringify(defs.RunStep)).toContain('"descriptor"')
    expect(defs.Manifest.properties).toHaveProperty('concurrency')
  })

  it('of the Optimizer-over-HTTP protocol, committed beside it, is the one its zod schemas generate', () => {
    const committed = readFileSync(OPTIMIZER_PROTOCOL_SCHEMA_PATH, 'utf8')
    expect(committed, `${OPTIMIZER_PROTOCOL_SCHEMA_PATH} is stale: run npm run protocol-schema and commit it`).toBe(
      optimizerProtocolJsonSchemaText(),
    )
    const defs = optimizerProtocolJsonSchema().$defs as Record<string, { properties?: Record<string, unknown> }>
    expect(Object.keys(defs).sort()).toEqual(Object.keys(OPTIMIZER_PROTOCOL_MESSAGES).sort())
    expect(defs.EventAnswer.properties).toHaveProperty('usage')
    expect(defs.OpenSessionBody.properties).toHaveProperty('security_domain')
  })
})
