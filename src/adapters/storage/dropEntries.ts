import type { PickedFile } from './fileListStorage'

/**
 * What the user dropped: the files of dropped folders (walked through the
 * File and Directory Entries API, the only way a drop exposes a folder) and
 * any plain files (a zip). Paths keep the dropped folder's name first, like
 * webkitRelativePath does for a picked folder.
 */
export interface Dropped {
  readonly folderName: string | null
  readonly files: PickedFile[]
  readonly plainFiles: File[]
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject))

async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader()
  const out: FileSystemEntry[] = []
  // readEntries hands out at most ~100 entries per call; an empty batch ends it.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) return out
    out.push(...batch)
  }
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name
  if (entry.isFile) {
    out.push({ path, file: await fileOf(entry as FileSystemFileEntry) })
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walk(child, path, out)
  }
}

export async function readDrop(data: DataTransfer): Promise<Dropped> {
  // Entries must be taken synchronously, before the first await: the
  // DataTransfer is emptied once the drop handler yields.
  const entries: FileSystemEntry[] = []
  const plainFiles: File[] = []
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue
    const entry = item.webkitGetAsEntry()
    if (entry?.isDirectory) entries.push(entry)
    else {
      const file = item.getAsFile()
      if (file) plainFiles.push(file)
    }
  }
  const files: PickedFile[] = []
  for (const entry of entries) await walk(entry, '', files)
  return { folderName: entries[0]?.name ?? null, files, plainFiles }
}
