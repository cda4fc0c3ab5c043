// Writes the protocol's JSON Schema, generated from the zod schemas, where the Python bridge reads it.
import { writeFileSync } from 'node:fs'
import { PROTOCOL_SCHEMA_PATH, protocolJsonSchemaText } from '../src/protocol/jsonSchema'

writeFileSync(PROTOCOL_SCHEMA_PATH, protocolJsonSchemaText())
console.log(`wrote ${PROTOCOL_SCHEMA_PATH}`)
