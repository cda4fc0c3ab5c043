import type { Access } from '../../core/model'

export const ACCESS_LABEL: Record<Access, string> = { none: 'not granted', scope: 'read & write', read_only: 'read only' }
export const SEVERITY_WORD = { error: 'Error', warning: 'Warning', info: 'Note' } as const
