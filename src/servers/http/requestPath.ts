/** Request paths, as every server here reads them: without building a URL object per request. */
import { ProtocolHttpError } from './jsonIo'

/** The path of a request target (`/a/b?x=1` → `/a/b`). */
export function pathOf(target: string): string {
  const query = target.indexOf('?')
  const fragment = target.indexOf('#')
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment)
  const path = end < 0 ? target : target.slice(0, end)
  if (path.startsWith('/')) return path
  // An absolute-form target (`http://host/a`) is legal HTTP, if rare; anything else reads as the root.
  try {
    return new URL(path).pathname
  } catch {
    return '/'
  }
}

/** The decoded segments of a path; a malformed %-escape is the client's error (400), never a crash of the server. */
export function decodedSegments(path: string): string[] {
  try {
    const segments: string[] = []
    for (const p of path.split('/')) if (p !== '') segments.push(p.includes('%') ? decodeURIComponent(p) : p)
    return segments
  } catch {
    throw new ProtocolHttpError(400, 'bad_request', `the path ${JSON.stringify(path.slice(0, 200))} has a malformed %-escape`)
  }
}
