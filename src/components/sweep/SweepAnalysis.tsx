/**
 * A sweep's results as the run console paints them: the summary line, the
 * forest painted with what each tag contributes (the frontier's view when a
 * frontier search of the same target, claim, attacker and forest is known,
 * else the ASR with the tag against without it), the wider-did-worse notes,
 * and the grid. Reads nothing itself: the run console feeds it live
 * lanes or this browser's manifests, the results viewer a folder's, zip's or
 * server's (a sweep merged by `redscope merge`), with its own links.
 */
import { useMemo, useState, type ReactNode } from 'react'
import { asrText, rateWords } from '../../core/stats'
import type { FrontierAnswerWords } from '../../core/frontier'
import { paintForest, paintFrontier, widerDidWorse, worstPerWider, type GrantNames, type SweepRecord } from '../../core/sweep'
import { ScopeChips } from '../Chips'
import { PaintedForest } from './PaintedForest'
import { SweepGrid } from './SweepGrid'
import { outcomesOf, type SweepRow } from '../../core/sweep'
import '../components.css'
import './sweep.css'
import { plural } from '../../lib/plural'

/** A frontier search's answer for the sweep's target, claim, attacker and forest, and where it comes from. */
export interface KnownFrontier {
  readonly minimalWins: readonly GrantNames[]
  /** Said under the painting: "The frontier search of this page", "frontier.json of results/x". */
  readonly source: string
  /** Its minimal wins and maximal losses in words, for the report (src/core/frontier/answer.ts). */
  readonly answer?: FrontierAnswerWords | null
}

export function SweepAnalysis({
  record,
  rows,
  openHref,
  actions,
  note,
  frontier = null,
}: {
  record: SweepRecord
  rows: readonly SweepRow[]
  /** Where a row's "open" link goes (the experiment in the viewer), as the surrounding router wants it. */
  openHref: (dir: string) => string
  /** Buttons beside the title (the run console's download). */
  actions?: ReactNode
  /** A line under the summary (where the sweep came from). */
  note?: ReactNode
  frontier?: KnownFrontier | null
}) {
  const { paint, worse, pairs, byDir } = useMemo(() => {
    const outcomes = outcomesOf(rows)
    const all = widerDidWorse(record.forest, outcomes)
    return {
      paint: paintForest(record.forest, outcomes),
      pairs: all,
      worse: worstPerWider(all),
      byDir: new Map(rows.map((r) => [r.dir, r])),
    }
  }, [record, rows])
  const frontierPaint = useMemo(() => (frontier ? paintFrontier(record.forest, frontier.minimalWins) : null), [record, frontier])
  const [view, setView] = useState<'frontier' | 'contrast'>('frontier')
  const done = rows.filter((r) => r.state === 'complete').length
  const nSuccess = rows.reduce((a, r) => a + r.nSuccess, 0)
  const nCompleted = rows.reduce((a, r) => a + r.nCompleted, 0)
  const broken = rows.filter((r) => r.nSuccess > 0).length
  const asr = rateWords(nSuccess, nCompleted, { unit: 'task', attacker: record.attacker })
  const showFrontier = frontierPaint !== null && frontier !== null && view === 'frontier'
  return (
    <section className="rc-sweep" aria-label="Sweep results">
      <div className="rc-row rc-row--spread">
        <div>
          <h2 className="rc-h2">{record.title}</h2>
          <p className="rc-muted rc-small" data-testid="sweep-summary">
            {done} of {plural(rows.length, 'threat model')} complete · {broken} broke the claim · {asrText(asr)}
          </p>
          {note ? (
            <p className="rc-muted rc-small" data-testid="sweep-note">
              {note}
            </p>
          ) : null}
        </div>
        {actions}
      </div>
      {frontierPaint !== null && frontier !== null ? (
        <div className="rc-row" role="group" aria-label="What the forest shows">
          <span className="rc-label">Paint:</span>
          <button type="button" className="rc-btn rc-btn--small" aria-pressed={view === 'frontier'} onClick={() => setView('frontier')}>
            the frontier’s view
          </button>
          <button type="button" className="rc-btn rc-btn--small" aria-pressed={view === 'contrast'} onClick={() => setView('contrast')}>
            with the tag against without it
          </button>
        </div>
      ) : null}
      {showFrontier ? (
        <PaintedForest
          forest={record.forest}
          painting={{ kind: 'frontier', paint: frontierPaint, source: frontier.source }}
          testId="forest-tag"
          label="Forest painted with the frontier's minimal winners"
        />
      ) : (
        <PaintedForest
          forest={record.forest}
          painting={{ kind: 'contrast', paint }}
          testId="forest-tag"
          label="Forest painted with what each tag contributes"
        />
      )}
      {pairs.length > 0 ? (
        <details className="rc-worse-list" open={worse.size <= 5}>
          <summary>
            <strong>{worse.size}</strong> wider threat model{worse.size === 1 ? '' : 's'} did worse than a narrower one{' '}
            {worse.size === 1 ? 'it contains' : 'they contain'}{' '}
            <span className="rc-muted">(noise, a flaky target, or an attacker spending runs on the wrong surface)</span>
          </summary>
          <ul>
            {[...worse.values()].slice(0, 50).map(({ pair, count }) => (
              <li key={pair.wider}>
                <ScopeChips scope={byDir.get(pair.wider)?.scope ?? []} readOnly={byDir.get(pair.wider)?.readOnly ?? []} /> at{' '}
                {shortOf(byDir.get(pair.wider))} &lt;{' '}
                <ScopeChips scope={byDir.get(pair.narrower)?.scope ?? []} readOnly={byDir.get(pair.narrower)?.readOnly ?? []} /> at{' '}
                {shortOf(byDir.get(pair.narrower))}
                {count > 1 ? <span className="rc-muted"> (and {count - 1} more narrower)</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <SweepGrid rows={rows} worse={worse} byDir={byDir} openHref={openHref} attacker={record.attacker} />
    </section>
  )
}

/** A row's ASR in the painting's compact words: "1/3 (6–80%)". */
function shortOf(row: SweepRow | undefined): string {
  return row ? rateWords(row.nSuccess, row.nCompleted, { unit: 'task' }).short : '?'
}
