// Writes the protocols' JSON Schemas, generated from the zod schemas, where the Python bridge reads them.
import { writeFileSync } from 'node:fs'
import {
  OPTIMIZER_PROTOCOL_SCHEMA_PATH,
  PROTOCOL_SCHEMA_PATH,
  optimizerProtocolJsonSchemaText,
  protocolJsonSchemaText,
} from '../src/protocol/jsonSchema'

writeFileSync(PROTOCOL_SCHEMA_PATH, protocolJsonSchemaText())
console.log(`wrote ${PROTOCOL_SCHEMA_PATH}`)
writeFileSync(OPTIMIZER_PROTOCOL_SCHEMA_PATH, optimizerProtocolJsonSchemaText())
console.log(`wrote ${OPTIMIZER_PROTOCOL_SCHEMA_PATH}`)
