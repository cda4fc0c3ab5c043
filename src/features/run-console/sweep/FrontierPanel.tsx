import { useState } from 'react'
import { Link } from 'wouter'
import { DEFAULT_THRESHOLD, testProblem, type Seed, type SequentialTest } from '../../../core/frontier'
import { rateWords } from '../../../core/stats'
import type { DesignerView } from '../workspace/designerView'
import { browserFrontierHref, viewerHref } from '../../../lib/browserResults'
import { useLiveStore } from '../live/liveStore'
import { Field } from '../ui/Field'
import { FrontierForest } from '../../../components/sweep/FrontierForest'
import { useClaimTargetMismatch } from '../setup/useClaimTargetMismatch'
import { ClaimTargetBlock } from '../setup/ui/ClaimTargetBlock'
import { findWeakestAttacker, stopFrontier, useFrontier, type FrontierPoint, type PointTally } from './frontierRunner'

const fmt = (n: number) => n.toLocaleString('en-US')
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
/** Two decimals, rounded outwards: a shown interval never claims more than the sequence does. */
const bounds = ([low, high]: readonly [number, number]) =>
  `[${(Math.floor(low * 100) / 100).toFixed(2)}, ${(Math.ceil(high * 100) / 100).toFixed(2)}]`

/** What a point's own runs say under a sequential test: "12 of 13 runs, rate in [0.61, 1.00]". */
function TallyText({ t }: { t: PointTally }) {
  return (
    <span className="rc-muted" data-testid="frontier-tally">
      {' '}
      · {t.wins} of {fmt(t.runs)} run{t.runs === 1 ? '' : 's'}, rate in {bounds(t.interval)}
    </span>
  )
}

/** Without a test, the runs that decided a point in the words every rate is said in: a loss is "not broken in N runs by <attacker>". */
function tallyText(p: FrontierPoint, attacker: string | null): string {
  if (p.tally === null) return ''
  return rateWords(p.tally.wins, p.tally.runs, { unit: 'run', attacker }).text
}

function Point({
  p,
  verdict,
  attacker,
  show,
}: {
  p: FrontierPoint
  verdict: 'wins' | 'loses' | 'undecided'
  attacker: string | null
  show: (p: FrontierPoint) => void
}) {
  const testId = verdict === 'wins' ? 'frontier-win' : verdict === 'loses' ? 'frontier-loss' : 'frontier-undecided'
  const runs = p.tested === null ? tallyText(p, attacker) : ''
  return (
    <li data-testid={testId} data-read-only={p.readOnly.join(' ')}>
      <span className="rc-mono">#{p.index}</span> {p.words} {verdict === 'undecided' ? 'stays undecided' : verdict}
      {p.tested ? (
        <TallyText t={p.tested} />
      ) : runs ? (
        <span className="rc-muted" data-testid="frontier-runs">
          : {runs}
        </span>
      ) : null}
      {p.dir ? (
        <>
          {' '}
          ·{' '}
          <Link className="rc-link" href={`~${viewerHref(p.dir)}`}>
            {p.dirs.length > 1 ? `the first of its ${fmt(p.dirs.length)} runs` : 'the run that decided it'}
          </Link>
        </>
      ) : null}{' '}
      <button
        type="button"
        className="rc-btn rc-btn--small"
        aria-label="Show on the forest"
        title="Paint this threat model alone on the forest"
        onClick={() => show(p)}
      >
        show
      </button>
    </li>
  )
}

/** The test's three numbers as typed, and the test they make (or the problem with them). */
function useTestInputs() {
  const [on, setOn] = useState(false)
  const [confidence, setConfidence] = useState('0.95')
  const [maxRepeats, setMaxRepeats] = useState('20')
  const [threshold, setThreshold] = useState(String(DEFAULT_THRESHOLD))
  const test: SequentialTest = { confidence: Number(confidence), threshold: Number(threshold), maxRepeats: Number(maxRepeats) }
  const blank = [confidence, maxRepeats, threshold].some((v) => v.trim() === '')
  const problem = !on ? null : blank ? 'give a confidence, a threshold and the most repeats' : testProblem(test)
  return {
    on,
    setOn,
    confidence,
    setConfidence,
    maxRepeats,
    setMaxRepeats,
    threshold,
    setThreshold,
    test: on && problem === null ? test : null,
    problem,
  }
}

/**
 * Beside the sweep: the frontier search instead of running every threat
 * model. Progress counts what was evaluated, what the order decided without
 * a run, and what is still open; the answer is the minimal winning threat
 * models in words, each linked to its run. On a noisy target, a sequential
 * test decides each evaluated threat model on repeated runs and the panel
 * shows each decision with its interval, and what stayed undecided. See
 * docs/frontier.md.
 */
export function FrontierPanel({ view }: { view: DesignerView }) {
  const f = useFrontier()
  const busy = useLiveStore((s) => s.session?.state === 'running' || s.session?.state === 'cancelling')
  const [seed, setSeed] = useState<Seed>('low')
  // Off by default, as `redscope frontier --read-only` is opt-in: read-only grants square the space (docs/frontier.md).
  const [readOnly, setReadOnly] = useState(false)
  const t = useTestInputs()
  // One point painted alone on the forest (a loss, or a win that reads), else every minimal winner.
  const [shown, setShown] = useState<FrontierPoint | null>(null)
  const running = f.state === 'running'
  const mismatch = useClaimTargetMismatch()
  const start = () => {
    setShown(null)
    void findWeakestAttacker(view.forest, view.domain!, seed, readOnly, t.test)
  }
  return (
    <section className="rc-card" aria-label="Weakest winning attacker">
      <h2 className="rc-card__title">Find the weakest winning attacker</h2>
      <p className="rc-hint">
        Instead of running every threat model: a threat model that grants more than a winner wins, one that grants less than a loser loses,
        so only the ones that decide something run, one at a time, with the target, claim, attacker and budget of steps 1-4.
      </p>
      <div className="rc-row rc-runbar">
        <button
          type="button"
          className="rc-btn rc-btn--primary"
          disabled={running || busy || view.domain === null || mismatch !== null || t.problem !== null}
          onClick={start}
        >
          {running ? 'Searching…' : 'Find the weakest winning attacker'}
        </button>
        <label className="rc-label" htmlFor="frontier-seed">
          Start from
        </label>
        <select
          id="frontier-seed"
          className="rc-input"
          style={{ width: 'auto' }}
          value={seed}
          disabled={running}
          onChange={(e) => setSeed(e.target.value as Seed)}
        >
          <option value="low">the least an attacker holds</option>
          <option value="high">the most an attacker holds</option>
        </select>
        <label
          className="rc-label"
          title="Also search threat models that let the attacker read a tag without writing it (per tag: not granted, read only, read & write), as redscope frontier --read-only does"
        >
          <input type="checkbox" checked={readOnly} disabled={running} onChange={(e) => setReadOnly(e.target.checked)} /> Include read-only
          grants
        </label>
        {running ? (
          <button type="button" className="rc-btn" onClick={stopFrontier}>
            Stop after this run
          </button>
        ) : null}
      </div>
      <ClaimTargetBlock reason={mismatch} />
      <label
        className="rc-row rc-check"
        title="As redscope frontier --confidence: for a target that does not answer the same way twice (a language model)"
      >
        <input type="checkbox" checked={t.on} disabled={running} onChange={(e) => t.setOn(e.target.checked)} /> Noisy target: decide each
        threat model by a sequential test on repeated runs
      </label>
      {t.on ? (
        <>
          <div className="rc-grid3">
            <Field
              label="Confidence"
              value={t.confidence}
              onChange={t.setConfidence}
              hint="each decision is wrong with probability at most 1 − this"
            />
            <Field label="Max repeats" value={t.maxRepeats} onChange={t.setMaxRepeats} hint="runs a threat model at most, then undecided" />
            <Field label="Threshold" value={t.threshold} onChange={t.setThreshold} hint="a success rate above it wins, below it loses" />
          </div>
          {t.problem ? (
            <p className="rc-error" role="alert">
              Noisy target: {t.problem}
            </p>
          ) : (
            <p className="rc-hint">
              Each threat model runs, up to “Threat models at once” runs side by side, until a {pct(t.test!.confidence)} confidence sequence
              puts its success rate above or below {t.test!.threshold}, or {fmt(t.test!.maxRepeats)} runs were made. Set max runs per task
              to 1 so that one run of the claim is one try.
            </p>
          )}
        </>
      ) : null}
      {f.state !== 'idle' ? (
        <>
          <p data-testid="frontier-progress" role="status">
            Evaluated <strong>{fmt(f.evaluated)}</strong> of {fmt(f.total)} threat models{f.readOnly ? ' (read-only grants included)' : ''}
            {f.inferred !== null ? (
              <>
                , decided by inference <strong>{fmt(f.inferred)}</strong>
              </>
            ) : null}
            {f.undecided !== null ? (
              <>
                , undecided <strong>{fmt(f.undecided)}</strong>
              </>
            ) : null}
            {f.test !== null ? (
              <>
                , <strong>{fmt(f.runs)}</strong> runs
              </>
            ) : null}
            {f.state === 'done' ? ' — done.' : f.state === 'stopped' ? ' — stopped.' : f.state === 'failed' ? ' — failed.' : '…'}
          </p>
          {f.error ? (
            <p className="rc-error" role="alert">
              {f.error}
            </p>
          ) : null}
          {f.keptId !== null ? (
            <p className="rc-hint" data-testid="frontier-kept">
              Kept in this browser:{' '}
              <Link className="rc-link" href={`~${browserFrontierHref(f.keptId)}`}>
                open it in Results
              </Link>
              , where it stays after a reload.
            </p>
          ) : null}
          {f.contradictions > 0 ? (
            <p className="rc-warn" data-testid="frontier-contradictions">
              {fmt(f.contradictions)} contradiction(s): a wider threat model lost where a narrower one won.
            </p>
          ) : null}
          {f.guarantee !== null && f.test !== null ? (
            <p className="rc-hint" data-testid="frontier-guarantee">
              Each decision is wrong with probability at most {pct(1 - f.test.confidence)}; all {fmt(f.guarantee.decisions)} decisions are
              right together with probability at least {pct(f.guarantee.allRightAtLeast)} (those decided by inference follow if the success
              rate grows with the grant). A sweep running every threat model {fmt(f.test.maxRepeats)} times would take{' '}
              {fmt(f.total * f.test.maxRepeats)} runs.
            </p>
          ) : null}
          {shown !== null ? (
            <>
              <FrontierForest forest={view.forest} wins={f.minimalWins} alone={shown} source="This search" />
              <p className="rc-hint" data-testid="frontier-shown">
                Painted: #{shown.index}, {shown.words}.{' '}
                <button type="button" className="rc-btn rc-btn--small" onClick={() => setShown(null)}>
                  Paint the minimal winners
                </button>
              </p>
            </>
          ) : f.minimalWins.length > 0 ? (
            <FrontierForest forest={view.forest} wins={f.minimalWins} source="This search" />
          ) : null}
          {f.minimalWins.length > 0 ? (
            <>
              <h3 className="rc-label">{f.state === 'done' ? 'The weakest attackers that win' : 'Minimal wins so far'}</h3>
              <ul className="rc-notes" aria-label="Minimal winning threat models">
                {f.minimalWins.map((p) => (
                  <Point key={p.index} p={p} verdict="wins" attacker={f.basis?.attacker ?? null} show={setShown} />
                ))}
              </ul>
            </>
          ) : f.state === 'done' ? (
            <p data-testid="frontier-none">
              {f.test !== null
                ? 'No threat model wins by its test: none was shown above the threshold.'
                : 'No threat model won: even the widest attacker lost, in the runs shown below.'}
            </p>
          ) : null}
          {f.undecidedPoints.length > 0 ? (
            <>
              <h3 className="rc-label">
                Undecided after their runs ({fmt(f.undecidedPoints.length)}): their success rate may lie on either side of{' '}
                {f.test?.threshold}
              </h3>
              <ul className="rc-notes" aria-label="Undecided threat models">
                {f.undecidedPoints.map((p) => (
                  <Point key={p.index} p={p} verdict="undecided" attacker={f.basis?.attacker ?? null} show={setShown} />
                ))}
              </ul>
            </>
          ) : null}
          {f.maximalLosses.length > 0 ? (
            <details>
              <summary>The widest attackers that lose ({fmt(f.maximalLosses.length)})</summary>
              <ul className="rc-notes" aria-label="Maximal losing threat models">
                {f.maximalLosses.map((p) => (
                  <Point key={p.index} p={p} verdict="loses" attacker={f.basis?.attacker ?? null} show={setShown} />
                ))}
              </ul>
            </details>
          ) : null}
          {f.evaluatedPoints.length > 0 ? (
            <details>
              <summary>Every evaluated threat model ({fmt(f.evaluatedPoints.length)}): decision and interval</summary>
              <table className="rc-table" aria-label="Evaluated threat models">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>threat model</th>
                    <th>decision</th>
                    <th>wins / runs</th>
                    <th>rate in</th>
                  </tr>
                </thead>
                <tbody>
                  {f.evaluatedPoints.map((p) => (
                    <tr key={p.index} data-testid="frontier-evaluated">
                      <td className="rc-mono">{p.index}</td>
                      <td>{p.words}</td>
                      <td>{p.tested?.decision}</td>
                      <td>{p.tested ? `${p.tested.wins} / ${fmt(p.tested.runs)}` : ''}</td>
                      <td>{p.tested ? bounds(p.tested.interval) : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
