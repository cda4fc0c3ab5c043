import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { Link } from 'wouter'
import { rateWords } from '../../core/stats'
import type { WiderWorse } from '../../core/sweep'
import { ScopeChips } from '../Chips'
import type { SweepRow } from '../../core/sweep'
import '../components.css'

const ROW = 38

/** One row per threat model: its saved name (when it has one) and its scope, one cell per task, its ASR with n and 95% interval, and the wider-did-worse note where there is one. */
export function SweepGrid({
  rows,
  worse,
  byDir,
  openHref,
  attacker,
}: {
  rows: readonly SweepRow[]
  /** The "open" link of a row: the experiment in the viewer. */
  openHref: (dir: string) => string
  worse: ReadonlyMap<string, { pair: WiderWorse; count: number }>
  byDir: ReadonlyMap<string, SweepRow>
  /** The sweep's attacker, named where a threat model held. */
  attacker: string
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const tasks = Math.max(1, ...rows.map((r) => r.nTasks))
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the project's virtualizer; the compiler cannot memoize it
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 10,
  })
  const columns = `64px minmax(160px, 1.4fr) ${Math.min(tasks, 12) * 26 + 8}px 128px minmax(200px, 2fr)`
  return (
    <div className="rc-sgrid" role="table" aria-label="Sweep results" aria-rowcount={rows.length + 1}>
      <p className="rc-legend rc-small" aria-hidden="true">
        Tasks: <span className="rc-cell-dot rc-status--success" /> attack succeeded <span className="rc-cell-dot rc-status--failed" /> not
        broken
        <span className="rc-cell-dot rc-status--error" /> error <span className="rc-cell-dot rc-status--running" /> running
      </p>
      <div className="rc-sgrid__row rc-sgrid__head" role="row" style={{ gridTemplateColumns: columns }}>
        <span role="columnheader">#</span>
        <span role="columnheader">Threat model</span>
        <span role="columnheader">Tasks</span>
        <span role="columnheader" title="successful / completed tasks, and the 95% Wilson interval of the attack success rate">
          ASR (95% CI)
        </span>
        <span role="columnheader">Note</span>
      </div>
      <div ref={scrollRef} className="rc-sgrid__body">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = rows[v.index]
            const note = worse.get(r.dir)
            const narrower = note ? byDir.get(note.pair.narrower) : undefined
            const asr = rateWords(r.nSuccess, r.nCompleted, { unit: 'task', attacker })
            return (
              <div
                key={r.dir}
                role="row"
                data-testid="sweep-row"
                data-dir={r.dir}
                className={`rc-sgrid__row${note ? ' rc-sgrid__row--worse' : ''}`}
                style={{
                  gridTemplateColumns: columns,
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW,
                  transform: `translateY(${v.start}px)`,
                }}
              >
                <span role="cell" className="rc-muted">
                  {r.index === '' ? '–' : `#${r.index}`}
                </span>
                <span role="cell" className="rc-clip" title={r.name}>
                  {r.name && (
                    <strong className="rc-sgrid__name" data-testid="sweep-row-name">
                      {r.name}
                    </strong>
                  )}
                  <ScopeChips scope={r.scope} readOnly={r.readOnly} />
                </span>
                <span role="cell" className="rc-cells">
                  {r.cells.length === 0 ? (
                    <span className="rc-muted rc-small">{r.state}</span>
                  ) : (
                    r.cells
                      .slice(0, 12)
                      .map((c) => (
                        <span
                          key={c.index}
                          className={`rc-cell-dot rc-status--${c.status}`}
                          title={`task ${c.index}: ${c.status}${c.error ? `: ${c.error}` : ''}`}
                          aria-label={`task ${c.index} ${c.status}`}
                        />
                      ))
                  )}
                </span>
                <span role="cell" data-testid="sweep-asr" title={r.state === 'missing' ? undefined : asr.text}>
                  {r.state === 'missing' ? '–' : asr.short}
                </span>
                <span role="cell" className="rc-clip rc-small">
                  {note ? (
                    <span className="rc-worse" data-testid="wider-worse">
                      ⚠ wider, did worse than{' '}
                      {narrower ? <ScopeChips scope={narrower.scope} readOnly={narrower.readOnly} /> : note.pair.narrower} ({asr.short} vs{' '}
                      {narrower ? rateWords(narrower.nSuccess, narrower.nCompleted, { unit: 'task' }).short : '?'})
                      {note.count > 1 ? ` and ${note.count - 1} more` : ''}
                    </span>
                  ) : r.state !== 'queued' && r.state !== 'missing' ? (
                    <Link className="rc-link" href={openHref(r.dir)}>
                      open
                    </Link>
                  ) : null}
                </span>
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
