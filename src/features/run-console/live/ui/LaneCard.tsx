import { memo } from 'react'
import { Link } from 'wouter'
import { viewerHref } from '../../../../lib/browserResults'
import { ScopeChips } from '../../../../components/Chips'
import { taskHeld } from '../../../../core/results'
import { asrText, rateWords } from '../../../../core/stats'
import { duration } from '../../../../lib/format'
import { costText, laneTotals, turnText } from '../liveSelectors'
import type { FinishedTask, Lane, LiveLimits } from '../liveTypes'
import { EvaluationLine } from './EvaluationLine'

/** A task's runs; one that held says how many runs did not break it and the most its per-run success rate can be. */
function runsText(f: FinishedTask, attacker: string): string {
  return taskHeld(f.status, f.runs) ? rateWords(0, f.runs, { unit: 'run', attacker }).text : `${f.runs} run${f.runs === 1 ? '' : 's'}`
}

const LANE_STATUS: Record<Lane['status'], string> = { queued: 'queued', running: 'running', done: 'done', cancelled: 'cancelled' }

/** One threat model: its identity, progress, the tasks running beneath it and the tasks finished. */
export const LaneCard = memo(function LaneCard({ lane, now, limits }: { lane: Lane; now: number; limits: LiveLimits }) {
  const cost = (value: number) => costText(value, limits)
  const t = laneTotals(lane)
  const i = lane.info
  const running = Object.values(lane.running).sort((a, b) => a.index - b.index)
  const finished = [...lane.finished].sort((a, b) => a.index - b.index)
  const asr = rateWords(t.successes, t.completed, { unit: 'task', attacker: i.attacker })
  return (
    <article className={`rc-lane rc-lane--${lane.status}`} aria-label={`Threat model ${i.key}`} data-testid="lane">
      <header className="rc-lane__head">
        <div className="rc-lane__who">
          <span className="rc-lane__scope">
            <ScopeChips scope={i.scope} readOnly={i.readOnly} />
          </span>
          <span className="rc-lane__id rc-muted">
            {i.attacker} · {i.target} · {i.claim}
            {i.model ? ` · ${i.model}` : ''}
          </span>
        </div>
        <div className="rc-lane__nums">
          <span className={`rc-status rc-status--${lane.status === 'done' ? 'done' : lane.status}`}>{LANE_STATUS[lane.status]}</span>
          <span title="tasks done">
            {t.done}/{t.tasks}
          </span>
          <span title={`attack success rate: ${asr.text}`} data-testid="lane-asr">
            {asrText(asr)}
          </span>
          <span title="LLM cost">{cost(t.cost)}</span>
          {lane.resultsDir || lane.status !== 'queued' ? (
            <Link className="rc-link" href={`~${viewerHref(i.key)}`}>
              open in viewer
            </Link>
          ) : null}
        </div>
      </header>
      <div className="rc-progress rc-progress--thin" aria-hidden="true">
        <span className="rc-progress__bar" style={{ width: `${t.tasks ? (t.done / t.tasks) * 100 : 0}%` }} />
      </div>
      {running.length > 0 ? (
        <table className="rc-table rc-table--running" aria-label="Running tasks">
          <thead>
            <tr>
              <th>Task</th>
              <th>Goal</th>
              <th>Run</th>
              <th>Best score</th>
              <th>Cost</th>
              <th>Time</th>
              <th>Attacker said (last run)</th>
            </tr>
          </thead>
          <tbody>
            {running.map((r) => (
              <tr key={r.index}>
                <td>#{r.index}</td>
                <td className="rc-clip">{r.goal}</td>
                <td>
                  {r.runs + 1} / {i.maxRunsPerTask}
                  {r.turn > 0 ? (
                    <span className="rc-muted" data-testid="turn">
                      {' '}
                      · {turnText(r.turn, limits.maxTurns)}
                    </span>
                  ) : null}
                </td>
                <td>{r.best === null ? '–' : r.best.toFixed(2)}</td>
                <td>{cost(r.cost)}</td>
                <td>{duration(now - r.startedAt)}</td>
                <td className="rc-clip" data-testid="running-said">
                  {r.said ?? '–'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {finished.length > 0 ? (
        <ul className="rc-finished" aria-label="Finished tasks">
          {finished.map((f) => (
            <li key={f.index} data-testid="task-result" data-status={f.status}>
              <span className={`rc-status rc-status--${f.status}`}>
                #{f.index} {f.status}
              </span>
              <span className="rc-finished__meta">
                {runsText(f, i.attacker)} · best {f.best.toFixed(2)}
                {f.cost || limits.unpricedModel ? ` · ${cost(f.cost)}` : ''}
                {f.kept ? ' · kept from an earlier run' : ''}
              </span>
              {f.echoed ? (
                <span className="rc-finished__echo" data-testid="task-echoed">
                  {f.echoed} run{f.echoed === 1 ? '' : 's'} echoed the attacker’s own injection:{' '}
                  {f.echoesCounted ? 'counted as success (echoes counted)' : 'not counted as success'}
                </span>
              ) : null}
              {f.said !== null ? (
                <span className="rc-finished__said" data-testid="task-said">
                  attacker said: “{f.said}”
                </span>
              ) : null}
              {f.evaluation ? <EvaluationLine index={f.index} evaluation={f.evaluation} /> : null}
              {f.error ? (
                <span className="rc-finished__error" role="alert">
                  {f.error}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {lane.problems.length > 0 ? (
        <ul className="rc-problems">
          {lane.problems.map((p, k) => (
            <li key={k}>{p}</li>
          ))}
        </ul>
      ) : null}
    </article>
  )
})
