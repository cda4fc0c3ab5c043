/** The results tree a command writes, with the secrets the process holds masked (heldSecrets.ts). */
import { NodeFsStorage } from '../adapters/storage/nodeFsStorage'
import { redactingStorage, type Storage } from '../core/results'
import { heldSecretsMask } from './heldSecrets'

/** The results tree at `root`, written with the held secrets masked. */
export function resultsStorage(root: string): Storage {
  return redactingStorage(new NodeFsStorage(root), heldSecretsMask())
}
