import type { Access, Effective } from '../../core/model'

export const ACCESS_LABEL: Record<Access, string> = { none: 'not granted', scope: 'read & write', read_only: 'read only' }
/** The grant drawn as one character in the compact density (the colour of the tag says it too). */
export const ACCESS_ICON: Record<Access, string> = { none: '○', scope: '✎', read_only: '👁' }
export const COVERAGE_LABEL: Record<Effective, string> = { write: 'writable', read: 'visible only', none: 'hidden' }
