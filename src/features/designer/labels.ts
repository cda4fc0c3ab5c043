import type { Access, Effective } from '../../core/model'

export const ACCESS_LABEL: Record<Access, string> = { none: 'not granted', scope: 'read & write', read_only: 'read only' }
export const COVERAGE_LABEL: Record<Effective, string> = { write: 'writable', read: 'visible only', none: 'hidden' }
