import { queryOptions } from '@tanstack/react-query'
import { toForest } from '../../../core/model'
import type { Forest } from '../../../core/tags'
import { openWorkspaceRepo } from '../../../stores/workspaceRepo'

export interface WorkspaceForest {
  readonly id: string
  readonly name: string
  readonly forest: Forest
}

/** The designer's autosaved workspaces (read only here), to attach one's forest to a plain superred tree. */
export function workspaceForestsQuery() {
  return queryOptions({
    queryKey: ['workspaces', 'forests'] as const,
    queryFn: async (): Promise<WorkspaceForest[]> => {
      const { records } = await (await openWorkspaceRepo()).list()
      return records.map((r) => ({ id: r.id, name: r.name, forest: toForest(r.doc) }))
    },
    staleTime: 0,
  })
}
