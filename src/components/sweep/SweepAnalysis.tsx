/**
 * A sweep's results as the run console paints them: the summary line, the
 * forest painted with each tag's pooled success rate, the wider-did-worse
 * notes, and the grid. Reads nothing itself: the run console feeds it live
 * lanes or this browser's manifests, the results viewer a folder's, zip's or
 * server's (a sweep merged by `redscope merge`), with its own links.
 */
import { useMemo, type ReactNode } from 'react'
import { paintForest, widerDidWorse, worstPerWider, type SweepRecord } from '../../core/sweep'
import { ScopeChips } from '../Chips'
import { pct } from '../../lib/format'
import { SweepForest } from './SweepForest'
import { SweepGrid } from './SweepGrid'
import { outcomesOf, type SweepRow } from '../../core/sweep'
import '../components.css'
import './sweep.css'
import { plural } from '../../lib/plural'

export function SweepAnalysis({ record, rows, openHref, actions, note }: {
  record: SweepRecord
  rows: readonly SweepRow[]
  /** Where a row's "open" link goes (the experiment in the viewer), as the surrounding router wants it. */
  openHref: (dir: string) => string
  /** Buttons beside the title (the run console's download). */
  actions?: ReactNode
  /** A line under the summary (where the sweep came from). */
  note?: ReactNode
}) {
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
            {done} of {plural(rows.length, 'threat model')} complete · {broken} broke the claim · ASR {pct(nCompleted ? nSuccess / nCompleted : null)} over {plural(nCompleted, 'completed task')}
          </p>
          {note ? <p className="rc-muted rc-small" data-testid="sweep-note">{note}</p> : null}
        </div>
        {actions}
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
      <SweepGrid rows={rows} worse={worse} byDir={byDir} openHref={openHref} />
    </section>
  )
}
