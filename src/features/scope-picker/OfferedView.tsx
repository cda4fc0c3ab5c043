import { useMemo } from 'react'
import type { Manifest } from '../../protocol/schemas'
import { offeredFor, type OfferedSurface } from './offered'

function Surfaces({ title, list, empty }: { title: string; list: OfferedSurface[]; empty: string }) {
  return (
    <div className="offered__group">
      <h4 className="offered__title">
        {title} <span className="count">{list.length}</span>
      </h4>
      {list.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="offered__list">
          {list.map((s) => (
            <li key={`${s.name}-${s.tag}-${s.readOnlyControllable}`} className="offered__item">
              <code>{s.name}</code> <span className="chip">{s.tag}</span>
              {s.readOnlyControllable ? (
                <span
                  className="badge"
                  title="A controllable under read_only: the optimizer reads it, the Controller declines every injection"
                >
                  read-only controllable
                </span>
              ) : null}
              {s.description ? <span className="muted"> {s.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Exactly what `optimizer.initialize()` would receive under this scope, computed by the engine. */
export function OfferedView({ manifest, scope, readOnly }: { manifest: Manifest; scope: string[]; readOnly: string[] }) {
  const offered = useMemo(() => offeredFor(manifest, scope, readOnly), [manifest, scope, readOnly])
  return (
    <section className="offered" aria-label="Offered to the optimizer">
      <Surfaces title="Controllables (can inject)" list={offered.controllables} empty="None: this attacker cannot inject anywhere." />
      <Surfaces title="Observables (can read)" list={offered.observables} empty="None: this attacker sees nothing of the target." />
      {offered.unknown.length > 0 ? (
        <p className="finding finding--warning">Not tags of this target, so they grant nothing there: {offered.unknown.join(', ')}.</p>
      ) : null}
    </section>
  )
}
