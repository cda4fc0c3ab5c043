import { useDesigner } from '../../stores/designerStore'
import { readingOf } from '../../stores/selectors'

/** The scope read as an attacker, from the tags' descriptions. */
export function AttackerReadingView() {
  const tags = useDesigner((s) => s.history.present.tags)
  const scope = useDesigner((s) => s.history.present.scope)
  const readOnly = useDesigner((s) => s.history.present.readOnly)
  const r = readingOf(tags, scope, readOnly)
  return (
    <div className="reading" aria-label="Attacker reading">
      <p className="reading__summary">{r.summary}</p>
      {r.writes.length > 0 || r.reads.length > 0 ? (
        <dl className="reading__list">
          {r.writes.map((w) => (
            <div key={w.id} className="reading__row reading__row--write">
              <dt>{w.name}</dt>
              <dd>
                {w.text}
                {w.covers > 0 ? ` (and the ${w.covers} tag${w.covers === 1 ? '' : 's'} under it)` : ''}
              </dd>
            </div>
          ))}
          {r.reads.map((w) => (
            <div key={w.id} className="reading__row reading__row--read">
              <dt>{w.name}</dt>
              <dd>
                sees it, cannot change it{w.text !== w.name ? ` (“${w.text}”)` : ''}
                {w.covers > 0 ? `, nor the ${w.covers} tag${w.covers === 1 ? '' : 's'} under it` : ''}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  )
}
