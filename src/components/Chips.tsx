import './components.css'
/** A threat model's scope and read_only as chips (names only: plain text). */
export function ScopeChips({
  scope,
  readOnly,
  empty = 'nothing granted',
}: {
  scope: readonly string[]
  readOnly: readonly string[]
  empty?: string
}) {
  if (scope.length + readOnly.length === 0) return <span className="rc-muted">{empty}</span>
  return (
    <span>
      {scope.map((n) => (
        <span key={`s-${n}`} className="rc-chip rc-chip--scope" title="read & write">
          {n}
        </span>
      ))}
      {readOnly.map((n) => (
        <span key={`r-${n}`} className="rc-chip rc-chip--ro" title="read only">
          {n}
        </span>
      ))}
    </span>
  )
}
