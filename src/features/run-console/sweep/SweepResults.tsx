import { useQuery } from '@tanstack/react-query'
import { useDeferredValue, useMemo, useState } from 'react'
import { paintForest, sweepRecordText, SWEEP_FILE, widerDidWorse, worstPerWider } from '../../../core/sweep'
import { downloadExperimentsZip } from '../engine/downloadZip'
import type { SweepRecord } from '../engine/sweepRecords'
import { useLiveStore } from '../live/liveStore'
import { ScopeChips } from '../ui/Chips'
import { pct } from '../ui/format'
import { SweepForest } from './SweepForest'
import { SweepGrid } from './SweepGrid'
import { outcomesOf, rowsFromLive, rowsFromManifests, sweepManifestsQuery, type SweepRow } from './sweepRows'

function Analysis({ record, rows }: { record: SweepRecord; rows: readonly SweepRow[] }) {
  const [busy, setBusy] = useState<string | null>(null)
  const { paint, worse, pairs, byDir } = useMemo(() => {
    const outcomes = outcomesOf(rows)
    const all = widerDidWorse(record.forest, outcomes)
    return { paint: paintForest(record.forest, outcomes), pairs: all, worse: worstPerWider(all), byDir: new Map(rows.map((r) => [r.dir, r])) }
  }, [record, rows])
  const done = rows.filter((r) => r.state === 'complete').length
  const nSuccess = rows.reduce((a, r) => a + r.nSuccess, 0)
  const nCompleted = rows.reduce((a, r) => a + r.nCompleted, 0)
  const broken = rows.filter((r) => r.nSuccess > 0).length
  return (
    <section className="rc-sweep" aria-label="Sweep results">
      <div className="rc-row rc-row--spread">
        <div>
          <h2 className="rc-h2">{record.title}</h2>
          <p className="rc-muted rc-small" data-testid="sweep-summary">
            {done} of {rows.length} threat models complete · {broken} broke the claim · ASR {pct(nCompleted ? nSuccess / nCompleted : null)} over {nCompleted} completed tasks
          </p>
        </div>
        <button type="button" className="rc-btn" disabled={busy !== null} onClick={async () => {
          setBusy('Zipping…')
          try {
            await downloadExperimentsZip(record.models.map((m) => m.dir), record.id, { [SWEEP_FILE]: sweepRecordText(record) })
            setBusy(null)
          } catch (e) {
            setBusy(`Could not zip: ${(e as Error).message}`)
          }
        }}>{busy ?? 'Download sweep (.zip)'}</button>
      </div>
      <SweepForest forest={record.forest} paint={paint} />
      {pairs.length > 0 ? (
        <details className="rc-worse-list" open={worse.size <= 5}>
          <summary><strong>{worse.size}</strong> wider threat model{worse.size === 1 ? '' : 's'} did worse than a narrower one {worse.size === 1 ? 'it contains' : 'they contain'} <span className="rc-muted">(noise, a flaky target, or an attacker spending runs on the wrong surface)</span></summary>
          <ul>
            {[...worse.values()].slice(0, 50).map(({ pair, count }) => (
              <li key={pair.wider}>
                <ScopeChips scope={byDir.get(pair.wider)?.scope ?? []} readOnly={byDir.get(pair.wider)?.readOnly ?? []} /> {pct(pair.widerRate)} &lt; {pct(pair.narrowerRate)} for <ScopeChips scope={byDir.get(pair.narrower)?.scope ?? []} readOnly={byDir.get(pair.narrower)?.readOnly ?? []} />{count > 1 ? <span className="rc-muted"> (and {count - 1} more narrower)</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <SweepGrid rows={rows} worse={worse} byDir={byDir} />
    </section>
  )
}

/** A sweep's results: live when this page ran it, else read back from the experiments' manifests. */
export function SweepResults({ record }: { record: SweepRecord }) {
  const session = useLiveStore((s) => (s.session?.sweepId === record.id ? s.session : null))
  // This page ran it: the live lanes are the truth (also once it ended). After a reload: the manifests.
  const stored = useQuery({ ...sweepManifestsQuery(record), enabled: session === null })
  const rows = useMemo(() => (session ? rowsFromLive(record, session) : stored.data ? rowsFromManifests(record, stored.data) : null), [record, session, stored.data])
  // A busy sweep changes every frame; the painting and the pairwise check may lag a frame or two behind.
  const deferred = useDeferredValue(rows)
  if (stored.error) return <p className="rc-error">Could not read the sweep’s results: {stored.error.message}</p>
  if (deferred === null) return <p className="rc-muted" role="status">Reading the sweep’s results…</p>
  return <Analysis record={record} rows={deferred} />
}
