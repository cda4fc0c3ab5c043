import { readFile } from 'node:fs/promises'
import { decodeUtf8, InvalidUtf8Error } from '../core/json'
import { buildDomain, CheckedForestSchema, describeForestIssues, SecurityDomainError, type Forest, type SecurityDomain } from '../core/tags'
import { UsageError } from './io'

/** Reads FOREST.json; every failure becomes one line naming the file and the problem. */
export async function readForestFile(path: string): Promise<{ forest: Forest; domain: SecurityDomain }> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new UsageError(
      `${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a forest file' : `cannot be read (${code ?? String(e)})`}`,
    )
  }
  let json: unknown
  try {
    json = JSON.parse(decodeUtf8(bytes))
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new UsageError(`${path}: ${e.message}`)
    throw new UsageError(`${path}: not valid JSON (${(e as Error).message})`)
  }
  const parsed = CheckedForestSchema.safeParse(json)
  if (!parsed.success) throw new UsageError(`${path}: not a forest file: ${describeForestIssues(parsed.error)}`)
  try {
    return { forest: parsed.data, domain: buildDomain(parsed.data) }
  } catch (e) {
    if (e instanceof SecurityDomainError) throw new UsageError(`${path}: ${e.message}`)
    throw e
  }
}
