/**
 * Copying results files between folders on disk for `redscope merge`: a hard
 * link where the two are on one filesystem (a merge of 300,000 files then
 * moves no bytes), else a copy. Safe because every writer here replaces a
 * file by rename and never rewrites one in place, so a later resume of a
 * shard cannot change the merged tree through the link.
 */
import { promises as fs } from 'node:fs'
import { dirname, resolve, sep } from 'node:path'
import { copyText, type FileCopier } from '../../core/results'
import { NodeFsStorage } from './nodeFsStorage'

export const nodeFsCopier: FileCopier = async (from, path, to, toPath) => {
  if (!(from instanceof NodeFsStorage) || !(to instanceof NodeFsStorage)) return copyText(from, path, to, toPath)
  const src = inside(from.root, path)
  const dst = inside(to.root, toPath)
  await fs.mkdir(dirname(dst), { recursive: true })
  await fs.rm(dst, { force: true })
  try {
    await fs.link(src, dst)
  } catch {
    await fs.copyFile(src, dst)
  }
}

/** As NodeFsStorage does: a path from a tree being read can never leave its root. */
function inside(root: string, path: string): string {
  const full = resolve(root, path)
  if (!full.startsWith(root + sep)) throw new Error(`path escapes the results root: ${path}`)
  return full
}
