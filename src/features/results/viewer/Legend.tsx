import { MARK_LABELS } from '../../../core/replay'

const SHOWN = [
  'injection',
  'declined-scope',
  'declined-optimizer',
  'read-only',
  'observation',
  'call',
  'run-end',
  'hidden',
  'learned',
  'echo',
] as const

/** What each mark means. */
export function Legend() {
  return (
    <ul className="legend" aria-label="Legend">
      {SHOWN.map((m) => (
        <li key={m}>
          <span className={`legend__swatch mark--${m}`} aria-hidden="true" />
          {MARK_LABELS[m]}
        </li>
      ))}
    </ul>
  )
}
