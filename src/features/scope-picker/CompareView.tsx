import { useState } from 'react'
import { attackerReading, compareThreatModels, pairNames, type ScopePair } from '../../core/model'
import { useTargetManifest } from '../../queries/targetManifest'
import { useDesigner } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { useWorkspace } from '../../stores/workspaceStore'
import { ACCESS_LABEL } from './labels'
import { offeredFor } from './offered'

const CURRENT = 'current'
const EFFECT = { write: 'writable', read: 'visible', none: 'hidden' } as const

/** Two threat models side by side: which tags differ, and what that changes for the optimizer. */
export function CompareView() {
  const doc = useDesigner(selectDoc)
  const models = useWorkspace((s) => s.models)
  const { manifest } = useTargetManifest()
  const [aId, setA] = useState(CURRENT)
  const [bId, setB] = useState(models[0]?.id ?? CURRENT)
  const options = [
    { id: CURRENT, name: 'Current scope', pair: doc as ScopePair },
    ...models.map((m) => ({ id: m.id, name: m.name, pair: m as ScopePair })),
  ]
  const a = options.find((o) => o.id === aId) ?? options[0]
  const b = options.find((o) => o.id === bId) ?? options[0]
  const diff = compareThreatModels(doc.tags, a.pair, b.pair)
  const pick = (value: string, set: (v: string) => void, label: string) => (
    <select className="input" aria-label={label} value={value} onChange={(e) => set(e.target.value)}>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </select>
  )
  const side = (o: typeof a) => {
    const names = pairNames(doc, o.pair)
    const offered = manifest ? offeredFor(manifest, names.scope, names.readOnly) : null
    return { names, reading: attackerReading(doc.tags, o.pair).summary, offered }
  }
  if (models.length === 0) return <p className="muted">Save a threat model to compare it with the current scope, side by side.</p>
  const sa = side(a)
  const sb = side(b)
  const setDiff = (x: string[], y: string[]) => x.filter((n) => !y.includes(n))
  return (
    <section className="compare" aria-label="Compare threat models">
      <div className="compare__cols">
        {[
          [sa, aId, setA, 'A'],
          [sb, bId, setB, 'B'],
        ].map(([s, v, set, label]) => {
          const sd = s as typeof sa
          return (
            <div key={label as string} className="compare__col">
              {pick(v as string, set as (v: string) => void, `Threat model ${label as string}`)}
              <p className="compare__grants">
                {sd.names.scope.map((n) => (
                  <span key={n} className="chip chip--scope">
                    {n}
                  </span>
                ))}
                {sd.names.readOnly.map((n) => (
                  <span key={n} className="chip chip--read_only">
                    {n}
                  </span>
                ))}
              </p>
              <p className="reading__summary">{sd.reading}</p>
              {sd.offered ? (
                <p className="muted">
                  {sd.offered.controllables.length} controllables, {sd.offered.observables.length} observables offered.
                </p>
              ) : null}
            </div>
          )
        })}
      </div>
      {diff.grants.length === 0 ? (
        <p className="ok">These two threat models grant the same tags.</p>
      ) : (
        <table className="diff-table" aria-label="Differences">
          <thead>
            <tr>
              <th>tag</th>
              <th>A</th>
              <th>B</th>
            </tr>
          </thead>
          <tbody>
            {diff.grants.map((g) => (
              <tr key={g.id}>
                <td>
                  <code>{g.name}</code>
                </td>
                <td>{ACCESS_LABEL[g.a]}</td>
                <td>{ACCESS_LABEL[g.b]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {diff.effects.length > 0 ? (
        <p className="muted">Effect on the forest: {diff.effects.map((e) => `${e.name} ${EFFECT[e.a]} → ${EFFECT[e.b]}`).join('; ')}.</p>
      ) : null}
      {sa.offered && sb.offered ? (
        <ul className="compare__offered" aria-label="What changes for the optimizer">
          {setDiff(
            sb.offered.controllables.map((c) => c.name),
            sa.offered.controllables.map((c) => c.name),
          ).map((n) => (
            <li key={`+c${n}`}>
              B can inject into <code>{n}</code>; A cannot.
            </li>
          ))}
          {setDiff(
            sa.offered.controllables.map((c) => c.name),
            sb.offered.controllables.map((c) => c.name),
          ).map((n) => (
            <li key={`-c${n}`}>
              A can inject into <code>{n}</code>; B cannot.
            </li>
          ))}
          {setDiff(
            sb.offered.observables.map((c) => c.name),
            sa.offered.observables.map((c) => c.name),
          ).map((n) => (
            <li key={`+o${n}`}>
              B sees <code>{n}</code>; A does not.
            </li>
          ))}
          {setDiff(
            sa.offered.observables.map((c) => c.name),
            sb.offered.observables.map((c) => c.name),
          ).map((n) => (
            <li key={`-o${n}`}>
              A sees <code>{n}</code>; B does not.
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
