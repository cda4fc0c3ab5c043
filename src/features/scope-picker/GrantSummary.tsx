import { pairNames } from '../../core/model'
import { useDesigner } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'

function Chips({ names, kind }: { names: string[]; kind: 'scope' | 'read_only' }) {
  if (names.length === 0) return <span className="muted">none</span>
  return (
    <>
      {names.map((n) => (
        <span key={n} className={`chip chip--${kind}`}>
          {n}
        </span>
      ))}
    </>
  )
}

/** scope and read_only as superred would receive them, with a way to clear both. */
export function GrantSummary() {
  const doc = useDesigner(selectDoc)
  const dispatch = useDesigner((s) => s.dispatch)
  const names = pairNames(doc, doc)
  return (
    <div className="grants">
      <div className="grants__row">
        <span className="grants__label">scope (read &amp; write)</span>
        <span className="grants__chips" data-testid="scope-names">
          <Chips names={names.scope} kind="scope" />
        </span>
      </div>
      <div className="grants__row">
        <span className="grants__label">read_only</span>
        <span className="grants__chips" data-testid="read-only-names">
          <Chips names={names.readOnly} kind="read_only" />
        </span>
      </div>
      {names.scope.length + names.readOnly.length > 0 ? (
        <button type="button" className="btn btn--small" onClick={() => dispatch({ type: 'setScope', scope: [], readOnly: [] })}>
          Clear the scope
        </button>
      ) : null}
    </div>
  )
}
