import { useState } from 'react'
import { Link } from 'wouter'
import type { Seed } from '../../../core/frontier'
import { rateWords } from '../../../core/stats'
import type { DesignerView } from '../workspace/designerView'
import { viewerHref } from '../../../lib/browserResults'
import { useLiveStore } from '../live/liveStore'
import { FrontierForest } from './FrontierForest'
import { useClaimTargetMismatch } from '../setup/useClaimTargetMismatch'
import { ClaimTargetBlock } from '../setup/ui/ClaimTargetBlock'
import { findWeakestAttacker, stopFrontier, useFrontier, type FrontierPoint } from './frontierRunner'

const fmt = (n: number) => n.toLocaleString('en-US')

/** The runs that decided a point, in the words every rate is said in: a loss is "not broken in N runs by <attacker>". */
function tallyText(p: FrontierPoint, attacker: string | null): string {
  if (p.tally === null) return ''
  return rateWords(p.tally.wins, p.tally.runs, { unit: 'run', attacker }).text
}

function Point({ p, verdict, attacker, show }: { p: FrontierPoint; verdict: 'wins' | 'loses'; attacker: string | null; show: (p: FrontierPoint) => void }) {
  const runs = tallyText(p, attacker)
  return (
    <li data-testid={verdict === 'wins' ? 'frontier-win' : 'frontier-loss'} data-read-only={p.readOnly.join(' ')}>
      <span className="rc-mono">#{p.index}</span> {p.words} {verdict}{runs ? <span className="rc-muted" data-testid="frontier-runs">: {runs}</span> : null}
      {p.dir ? <> · <Link className="rc-link" href={`~${viewerHref(p.dir)}`}>the run that decided it</Link></> : null}
      {' '}<button type="button" className="rc-btn rc-btn--small" aria-label="Show on the forest" title="Paint this threat model alone on the forest" onClick={() => show(p)}>show</button>
    </li>
  )
}

/**
 * Beside the sweep: the frontier search instead of running every threat
 * model. Progress counts what was evaluated, what the order decided without
 * a run, and what is still open; the answer is the minimal winning threat
 * models in words, each linked to its run. See docs/frontier.md.
 */
export function FrontierPanel({ view }: { view: DesignerView }) {
  const f = useFrontier()
  const busy = useLiveStore((s) => s.session?.state === 'running' || s.session?.state === 'cancelling')
  const [seed, setSeed] = useState<Seed>('low')
  // Off by default, as `redscope frontier --read-only` is opt-in: read-only grants square the space (docs/frontier.md).
  const [readOnly, setReadOnly] = useState(false)
  // One point painted alone on the forest (a loss, or a win that reads), else every minimal winner.
  const [shown, setShown] = useState<FrontierPoint | null>(null)
  const running = f.state === 'running'
  const mismatch = useClaimTargetMismatch()
  const start = () => {
    setShown(null)
    void findWeakestAttacker(view.forest, view.domain!, seed, readOnly)
  }
  return (
    <section className="rc-card" aria-label="Weakest winning attacker">
      <h2 className="rc-card__title">Find the weakest winning attacker</h2>
      <p className="rc-hint">Instead of running every threat model: a threat model that grants more than a winner wins, one that grants less than a loser loses, so only the ones that decide something run, one at a time, with the target, claim, attacker and budget of steps 1-4.</p>
      <div className="rc-row rc-runbar">
        <button type="button" className="rc-btn rc-btn--primary" disabled={running || busy || view.domain === null || mismatch !== null}
          onClick={start}>
          {running ? 'Searching…' : 'Find the weakest winning attacker'}
        </button>
        <label className="rc-label" htmlFor="frontier-seed">Start from</label>
        <select id="frontier-seed" className="rc-input" style={{ width: 'auto' }} value={seed} disabled={running} onChange={(e) => setSeed(e.target.value as Seed)}>
          <option value="low">the least an attacker holds</option>
          <option value="high">the most an attacker holds</option>
        </select>
        <label className="rc-label" title="Also search threat models that let the attacker read a tag without writing it (per tag: not granted, read only, read & write), as redscope frontier --read-only does">
          <input type="checkbox" checked={readOnly} disabled={running} onChange={(e) => setReadOnly(e.target.checked)} /> Include read-only grants
        </label>
        {running ? <button type="button" className="rc-btn" onClick={stopFrontier}>Stop after this run</button> : null}
      </div>
      <ClaimTargetBlock reason={mismatch} />
      {f.state !== 'idle' ? (
        <>
          <p data-testid="frontier-progress" role="status">
            Evaluated <strong>{fmt(f.evaluated)}</strong> of {fmt(f.total)} threat models{f.readOnly ? ' (read-only grants included)' : ''}
            {f.inferred !== null ? <>, decided by inference <strong>{fmt(f.inferred)}</strong></> : null}
            {f.undecided !== null ? <>, undecided <strong>{fmt(f.undecided)}</strong></> : null}
            {f.state === 'done' ? ' — done.' : f.state === 'stopped' ? ' — stopped.' : f.state === 'failed' ? ' — failed.' : '…'}
          </p>
          {f.error ? <p className="rc-error" role="alert">{f.error}</p> : null}
          {f.contradictions > 0 ? <p className="rc-warn" data-testid="frontier-contradictions">{fmt(f.contradictions)} contradiction(s): a wider threat model lost where a narrower one won.</p> : null}
          {shown !== null ? (
            <>
              <FrontierForest forest={view.forest} wins={f.minimalWins} alone={shown} />
              <p className="rc-hint" data-testid="frontier-shown">Painted: #{shown.index}, {shown.words}. <button type="button" className="rc-btn rc-btn--small" onClick={() => setShown(null)}>Paint the minimal winners</button></p>
            </>
          ) : f.minimalWins.length > 0 ? <FrontierForest forest={view.forest} wins={f.minimalWins} /> : null}
          {f.minimalWins.length > 0 ? (
            <>
              <h3 className="rc-label">{f.state === 'done' ? 'The weakest attackers that win' : 'Minimal wins so far'}</h3>
              <ul className="rc-notes" aria-label="Minimal winning threat models">{f.minimalWins.map((p) => <Point key={p.index} p={p} verdict="wins" attacker={f.basis?.attacker ?? null} show={setShown} />)}</ul>
            </>
          ) : f.state === 'done' ? <p data-testid="frontier-none">No threat model won: even the widest attacker lost, in the runs shown below.</p> : null}
          {f.maximalLosses.length > 0 ? (
            <details>
              <summary>The widest attackers that lose ({fmt(f.maximalLosses.length)})</summary>
              <ul className="rc-notes" aria-label="Maximal losing threat models">{f.maximalLosses.map((p) => <Point key={p.index} p={p} verdict="loses" attacker={f.basis?.attacker ?? null} show={setShown} />)}</ul>
            </details>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
