import type { ItemMark, PersistedItemLike } from '../../../core/replay'
import { surfaceName } from '../../../core/replay'

/** Short names of item types for the rows. */
export function kindLabel(item: PersistedItemLike): string {
  switch (item.type) {
    case 'ControllablePreCallEvent':
      return 'pre-call'
    case 'ControllablePostCallEvent':
      return 'post-call'
    case 'ObservableEvent':
      return 'observe'
    case 'ControllableInjection':
      return 'inject'
    case 'ControllableNoInjection':
      return item.kind === 'response' && item.declined_by ? `decline (${item.declined_by})` : 'decline (unknown: schema 4)'
    case 'RunEndEvent':
      return 'run end'
    case 'RunEndResponse':
      return 'run end response'
    default:
      return item.type
  }
}

/** The value a row previews: what the step is about. */
export function previewValue(item: PersistedItemLike): unknown {
  const rec = item as unknown as Record<string, unknown>
  switch (item.type) {
    case 'ControllablePreCallEvent':
      return rec.request
    case 'ControllablePostCallEvent':
      return rec.answer
    case 'ObservableEvent':
      return rec.content
    case 'ControllableInjection':
      return rec.value
    case 'ControllableNoInjection':
      return ''
    case 'RunEndEvent': {
      const ev = rec.evaluation as { success?: boolean; primary_score?: { value?: number }; rationale?: string } | null | undefined
      if (!ev) return 'no evaluation (include_feedback off)'
      return `${ev.success ? 'success' : 'no success'} · score ${ev.primary_score?.value ?? '?'} · ${ev.rationale ?? ''}`
    }
    default: {
      const { kind: _kind, type: _type, ...rest } = rec
      void _kind
      void _type
      return rest
    }
  }
}

export { surfaceName }

export const MARK_SHORT: Readonly<Record<ItemMark | 'hidden' | 'learned' | 'echo', string>> = {
  injection: 'injection',
  'declined-scope': 'auto-declined',
  'declined-optimizer': 'optimizer declined',
  'read-only': 'read-only',
  'run-end': 'run end',
  observation: 'observation',
  call: 'call',
  response: 'response',
  hidden: 'hidden',
  learned: 'learned via feedback',
  echo: 'echo',
}
