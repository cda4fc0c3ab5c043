/**
 * The one gate between a request path and the disk: a served folder (the
 * built app, a results folder) must never give out anything outside itself.
 * Refused: `..` and `.` segments, encoded slashes and backslashes, NUL,
 * dot-files and dot-folders anywhere in the path (`.git`, `.env`, a writer's
 * `.tmp` files), and any path whose real location (symlinks followed) leaves
 * the root. Absent files are 404 like refused dot-files, so a probe cannot
 * tell a hidden file from a missing one.
 */
import { realpath, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'

export type Guarded =
  | { readonly ok: true; readonly path: string; readonly kind: 'file' | 'dir'; readonly size: number; readonly mtimeMs: number }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string }

/** The decoded segments of a URL path below a mount point, or why they are refused (nothing touched on disk yet). */
export function guardedSegments(
  urlPath: string,
): { ok: true; segments: string[] } | { ok: false; status: 400 | 403 | 404; reason: string } {
  const segments: string[] = []
  for (const raw of urlPath.split('/')) {
    if (raw === '') continue
    let s: string
    try {
      s = decodeURIComponent(raw)
    } catch {
      return { ok: false, status: 400, reason: 'malformed %-escape' }
    }
    if (s === '.' || s === '..') return { ok: false, status: 403, reason: 'dot segment' }
    // Decoded, these would be separators (or truncate the path in C): a second way to write `..`.
    if (s.includes('/') || s.includes('\\') || s.includes('\0')) return { ok: false, status: 403, reason: 'separator inside a segment' }
    if (s.startsWith('.')) return { ok: false, status: 404, reason: 'dot-file' }
    segments.push(s)
  }
  return { ok: true, segments }
}

/** Whether `path` is `root` or below it (both already real paths). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}

/**
 * Resolves a URL path under `realRoot` (the root's own realpath, taken once
 * when the server starts) to a file or folder on disk, or refuses it.
 */
export async function resolveUnder(realRoot: string, urlPath: string): Promise<Guarded> {
  const parsed = guardedSegments(urlPath)
  if (!parsed.ok) return parsed
  let real: string
  try {
    real = await realpath(join(realRoot, ...parsed.segments))
  } catch {
    return { ok: false, status: 404, reason: 'not found' }
  }
  // A symlink inside the folder that points elsewhere (or a folder renamed under us) is refused, not followed.
  if (!isInside(realRoot, real)) return { ok: false, status: 403, reason: 'outside the served folder' }
  try {
    const s = await stat(real)
    if (s.isFile()) return { ok: true, path: real, kind: 'file', size: s.size, mtimeMs: s.mtimeMs }
    if (s.isDirectory()) return { ok: true, path: real, kind: 'dir', size: 0, mtimeMs: s.mtimeMs }
    return { ok: false, status: 403, reason: 'not a regular file' }
  } catch {
    return { ok: false, status: 404, reason: 'not found' }
  }
}
