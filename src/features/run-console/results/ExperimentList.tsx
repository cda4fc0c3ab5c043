import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef, useState } from 'react'
import { Link } from 'wouter'
import type { ExperimentsIndexRow } from '../../../core/results'
import { downloadExperimentsZip } from '../engine/downloadZip'
import { viewerHref } from '../engine/resultsStorage'
import { ScopeChips } from '../ui/Chips'
import { pct, usd } from '../ui/format'

const ROW = 40
const COLUMNS = '28px minmax(200px, 2fr) minmax(90px, .8fr) minmax(110px, 1fr) minmax(120px, 1fr) 90px 60px 70px 80px 130px 112px'

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '–')

/** Every experiment in this browser with its summary; each opens in the viewer or downloads as a zip. */
export function ExperimentList({ rows }: { rows: readonly ExperimentsIndexRow[] }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [busy, setBusy] = useState<string | null>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the project's virtualizer; the compiler cannot memoize it
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 10 })
  const zip = async (dirs: readonly string[], name: string) => {
    setBusy(`Zipping ${dirs.length} experiment${dirs.length === 1 ? '' : 's'}…`)
    try {
      await downloadExperimentsZip(dirs, name)
      setBusy(null)
    } catch (e) {
      setBusy(`Could not zip: ${(e as Error).message}`)
    }
  }
  const toggle = (dir: string) => setSelected((s) => {
    const next = new Set(s)
    if (next.has(dir)) next.delete(dir)
    else next.add(dir)
    return next
  })
  return (
    <section aria-label="Experiments" className="rc-experiments">
      <div className="rc-row rc-row--spread">
        <h2 className="rc-h2">Experiments in this browser <span className="rc-muted">({rows.length})</span></h2>
        <div className="rc-row">
          {busy ? <span className="rc-muted" role="status">{busy}</span> : null}
          <button type="button" className="rc-btn" disabled={selected.size === 0} onClick={() => zip([...selected], 'redscope-results')}>Download selected (.zip)</button>
          <button type="button" className="rc-btn" disabled={rows.length === 0} onClick={() => zip(rows.map((r) => r.dir), 'redscope-results')}>Download all (.zip)</button>
        </div>
      </div>
      <div className="rc-sgrid" role="table" aria-rowcount={rows.length + 1}>
        <div className="rc-sgrid__row rc-sgrid__head" role="row" style={{ gridTemplateColumns: COLUMNS }}>
          <span role="columnheader" /><span role="columnheader">Threat model (scope, read-only)</span><span role="columnheader">Attacker</span><span role="columnheader">Target</span>
          <span role="columnheader">Claim</span><span role="columnheader">Status</span><span role="columnheader">ASR</span>
          <span role="columnheader">Success</span><span role="columnheader">Cost</span><span role="columnheader">Completed</span><span role="columnheader" />
        </div>
        <div ref={scrollRef} className="rc-sgrid__body rc-sgrid__body--tall">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const r = rows[v.index]
              return (
                <div key={r.dir} role="row" data-testid="experiment-row" data-dir={r.dir} className="rc-sgrid__row"
                  style={{ gridTemplateColumns: COLUMNS, position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${v.start}px)` }}>
                  <span role="cell"><input type="checkbox" aria-label={`Select ${r.dir}`} checked={selected.has(r.dir)} onChange={() => toggle(r.dir)} /></span>
                  <span role="cell" className="rc-clip" title={r.dir}><ScopeChips scope={r.experiment.scope_label ? [r.experiment.scope_label] : r.experiment.scope} readOnly={r.experiment.read_only} /></span>
                  <span role="cell" className="rc-clip">{r.experiment.attacker}{r.experiment.model ? ` (${r.experiment.model})` : ''}</span>
                  <span role="cell" className="rc-clip">{r.experiment.target}</span>
                  <span role="cell" className="rc-clip">{r.experiment.claim}</span>
                  <span role="cell"><span className={`rc-status rc-status--${r.status === 'complete' ? 'done' : 'running'}`}>{r.status === 'complete' ? 'complete' : 'in progress'}</span></span>
                  <span role="cell" data-testid="experiment-asr">{pct(r.summary.asr)}</span>
                  <span role="cell">{r.summary.n_success ?? '–'} / {r.summary.n_completed ?? '–'}</span>
                  <span role="cell">{usd(r.summary.total_llm_usage?.cost ?? 0)}</span>
                  <span role="cell" className="rc-small rc-muted">{when(r.completed_at)}</span>
                  <span role="cell" className="rc-row">
                    <Link href={`~${viewerHref(r.dir)}`} className="rc-btn rc-btn--small" aria-label={`Open ${r.dir} in the viewer`}>Open</Link>
                    <button type="button" className="rc-btn rc-btn--small" aria-label={`Download ${r.dir} as a zip`} onClick={() => zip([r.dir], r.dir)}>.zip</button>
                  </span>
                </div>
              )
            })}
          </div>
        </div>
      </div>
    </section>
  )
}
