/** Reading JSON bodies and writing JSON answers and protocol errors with node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../core/json'
import { formatPath } from '../../core/tags'
import { parseWire } from '../../protocol/hotMessages'
import { VARY, VARY_ORIGIN } from './cors'

/** A protocol error: becomes `{"error": {"code", "message"}}` with this status. */
export class ProtocolHttpError extends Error {
  readonly status: number
  readonly code: string
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message)
    this.name = 'ProtocolHttpError'
    this.status = status
    this.code = code
    this.headers = headers
  }
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** The request body as text, refusing bodies over `maxBytes` (413) before reading them whole. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let failed = false
    req.on('data', (chunk: Buffer) => {
      if (failed) return
      size += chunk.length
      if (size > maxBytes) {
        failed = true
        reject(new ProtocolHttpError(413, 'payload_too_large', `request body over ${maxBytes} bytes`))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      // A protocol body (tens of bytes) comes in one chunk: decoded as it is, not copied first.
      if (!failed) resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'))
    })
    req.on('error', (e) => {
      if (!failed) reject(e)
    })
  })
}

/** `application/json`, with parameters or not, and `…+json` types. */
function isJsonType(header: string): boolean {
  const type = header.split(';')[0].trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

function unsupportedType(what: string): ProtocolHttpError {
  return new ProtocolHttpError(415, 'unsupported_media_type', `${what}: a body must be sent as Content-Type: application/json`)
}

/**
 * Parses a JSON body with a schema; an empty body reads as `{}` (the draft's empty bodies). A body of
 * another type (text/plain, a form: what a page on another origin may send without a preflight) is 415,
 * refused before it is read; JSON nested deeper than MAX_JSON_DEPTH is 400, refused before it is parsed.
 */
export async function readJson<S extends z.ZodType>(req: IncomingMessage, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const type = req.headers['content-type']
  if (type !== undefined && !isJsonType(type)) throw unsupportedType(`Content-Type ${JSON.stringify(type.slice(0, 100))}`)
  const text = await readBody(req, maxBytes)
  let json: unknown = {}
  if (text.trim() !== '') {
    if (type === undefined) throw unsupportedType('a body without a Content-Type')
    // Nesting too deep for that takes two brackets a level: a shorter body (every protocol message) is not scanned.
    if (text.length >= 2 * (MAX_JSON_DEPTH + 1) && jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new ProtocolHttpError(
        400,
        'bad_request',
        `body is JSON nested deeper than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels (refused unparsed)`,
      )
    }
    try {
      json = JSON.parse(text)
    } catch (e) {
      throw new ProtocolHttpError(400, 'bad_request', `body is not JSON: ${(e as Error).message}`)
    }
  }
  const parsed = parseWire(schema, json)
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ')
    throw new ProtocolHttpError(400, 'bad_request', `malformed body: ${detail}`)
  }
  return parsed.data
}

// Each answer's headers go in its one writeHead (merged with any set before, an allowed origin's CORS
// headers): when nothing was set before, node:http takes them as they are, the cheapest path per step.
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    [VARY]: VARY_ORIGIN,
  })
  res.end(text)
}

/** Shared by every 204: node:http only reads the headers it is given. */
const NO_CONTENT_HEADERS = Object.freeze({ [VARY]: VARY_ORIGIN })

export function sendNoContent(res: ServerResponse): void {
  res.writeHead(204, NO_CONTENT_HEADERS)
  res.end()
}

export function sendError(res: ServerResponse, error: ProtocolHttpError): void {
  const text = JSON.stringify({ error: { code: error.code, message: error.message } })
  res.writeHead(error.status, {
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    [VARY]: VARY_ORIGIN,
  })
  res.end(text)
}
