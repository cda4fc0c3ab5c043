import { tagIdOf, type TagId } from '../core/model'
import { workspaceIdOf, type WorkspaceId } from './workspaceTypes'

function randomId(): string {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(9))
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
}

export const newTagId = (): TagId => tagIdOf(`t_${randomId()}`)
export const newWorkspaceId = (): WorkspaceId => workspaceIdOf(`w_${randomId()}`)
export const newModelId = (): string => `m_${randomId()}`
