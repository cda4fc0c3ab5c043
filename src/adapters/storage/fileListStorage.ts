import { StorageNotFoundError, type StorageEntry } from '../../core/results/storage'
import { PathIndex, ReadOnlyStorage } from './readOnlyStorage'

/** A file picked from a folder: its path inside the picked folder (webkitRelativePath) and its bytes. */
export interface PickedFile {
  readonly path: string
  readonly file: Blob
}

/**
 * A superred results folder the user picked (<input webkitdirectory>) or
 * dropped. Files are read only when asked for, so a folder of thousands of
 * trajectories opens at once.
 */
export class FileListStorage extends ReadOnlyStorage {
  readonly label: string
  private readonly index: PathIndex<Blob>

  constructor(files: Iterable<PickedFile>, label: string) {
    super()
    this.index = new PathIndex([...files].map((f) => [f.path, f.file] as const))
    this.label = label
  }

  /** From an <input webkitdirectory> FileList. */
  static fromFileList(files: ArrayLike<File>): FileListStorage {
    const list = Array.from(files, (file) => ({ path: file.webkitRelativePath || file.name, file }))
    const top = list[0]?.path.split('/')[0] ?? 'folder'
    return new FileListStorage(list, top)
  }

  get fileCount(): number {
    return this.index.size
  }

  async readText(path: string): Promise<string> {
    const file = this.index.get(path)
    if (file === undefined) throw new StorageNotFoundError(path)
    return file.text()
  }

  async list(dir: string): Promise<StorageEntry[]> {
    return this.index.list(dir)
  }
}
