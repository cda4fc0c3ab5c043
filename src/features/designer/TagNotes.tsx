import type { TagNote } from '../../stores/selectors'

const SEVERITY_WORD = { error: 'Error', warning: 'Advice', info: 'Note' } as const

/**
 * Findings shown beside their tag, never in a modal. The tag a finding is
 * about carries its full text; the other tags involved only point to it.
 * Text only: names and messages are user data.
 */
export function TagNotes({ notes }: { notes: readonly TagNote[] }) {
  const primary = notes.filter((n) => n.primary)
  const others = notes.filter((n) => !n.primary)
  return (
    <ul className="tag-notes" aria-label="Findings">
      {primary.map((n) => (
        <li key={n.key} className={`tag-note tag-note--${n.severity}`} title={n.text}>
          <span className="tag-note__text">
            <span className="sr-only">{SEVERITY_WORD[n.severity]}: </span>
            {n.text}
          </span>
        </li>
      ))}
      {others.length > 0 ? (
        <li
          className={`tag-note tag-note--secondary tag-note--${others.some((n) => n.severity === 'error') ? 'error' : others[0].severity}`}
          title={others.map((n) => n.text).join('\n')}
        >
          <span className="tag-note__text">↳ involved: see {[...new Set(others.map((n) => n.about))].join(', ')}</span>
        </li>
      ) : null}
    </ul>
  )
}
