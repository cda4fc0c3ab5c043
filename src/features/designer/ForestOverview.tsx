import { forestIsValid } from '../../core/model'
import { useDesigner } from '../../stores/designerStore'
import { countsOf, forestFindingsOf, tagIndex } from '../../stores/selectors'
import { formatCount } from '../../lib/formatCount'
import { PRINCIPLES } from './principles'

/** With nothing selected: the forest as a whole, its findings, and the guide's principles. */
export function ForestOverview() {
  const tags = useDesigner((s) => s.history.present.tags)
  const select = useDesigner((s) => s.select)
  const findings = forestFindingsOf(tags).filter((f) => f.severity !== 'info')
  const advice = forestFindingsOf(tags).filter((f) => f.severity === 'info')
  const counts = countsOf(tags)
  const roots = tags.filter((t) => t.parent === null).length
  const names = tagIndex(tags)
  return (
    <section className="inspector" aria-label="Forest">
      <p className="inspector__summary">
        <strong>{tags.length}</strong> tags in <strong>{roots}</strong> tree{roots === 1 ? '' : 's'}
        {/* Two counts that differ by one: superred's includes the empty scope, which a sweep refuses (it grants nothing). */}
        {counts ? (
          <>
            {' '}
            · <strong>{formatCount(counts.total)}</strong> distinct threat model{counts.total === 1n ? '' : 's'} by superred's count, the
            empty one included (<span data-testid="granting-count">{formatCount(counts.total - 1n)}</span> grant something: what a sweep and
            the frontier search run)
          </>
        ) : null}
        . Select a tag to edit it; double-click to rename; drag it onto another tag to reparent.
      </p>
      <h3 className="panel__heading">Validation</h3>
      {findings.length === 0 ? (
        <p className={`ok ${forestIsValid(findings) ? '' : 'hidden'}`}>✓ superred would accept this forest.</p>
      ) : (
        <ul className="finding-list" aria-label="Forest findings">
          {findings.map((f, i) => (
            <li key={i} className={`finding finding--${f.severity}`}>
              <button type="button" className="link" onClick={() => select(f.tags)}>
                {names.get(f.tags[0])?.name ?? '(unnamed)'}
              </button>
              : {f.message}
            </li>
          ))}
        </ul>
      )}
      {advice.length > 0 ? (
        <p className="muted">
          {advice.length} tag{advice.length === 1 ? '' : 's'} without a description (the attacker reading uses them).
        </p>
      ) : null}
      <h3 className="panel__heading">The guide's seven principles</h3>
      <ol className="principles">
        {PRINCIPLES.map((p) => (
          <li key={p.n}>
            <strong>{p.title}</strong> <span className="muted">{p.help}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
