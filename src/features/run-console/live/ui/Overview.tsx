import { cancelRun } from '../../runner/runner'
import { rateWords } from '../../../../core/stats'
import { duration } from '../../../../lib/format'
import { costText, sessionAttacker, sessionTotals } from '../liveSelectors'
import type { RunSession } from '../liveTypes'
import { useNow } from '../useNow'

const STATE_TEXT: Record<RunSession['state'], string> = {
  running: 'Running',
  cancelling: 'Cancelling…',
  finished: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Stopped by an error',
}

function Stat({ label, value, sub, testId, title }: { label: string; value: string; sub?: string; testId: string; title?: string }) {
  return (
    <div className="rc-stat" title={title}>
      <span className="rc-stat__value" data-testid={testId}>
        {value}
      </span>
      <span className="rc-stat__label">{label}</span>
      {sub ? (
        <span className="rc-stat__sub" data-testid={`${testId}-sub`}>
          {sub}
        </span>
      ) : null}
    </div>
  )
}

/** superred's dashboard header: tasks done, attack-success rate, running, cost, elapsed; and the cancel button. */
export function Overview({ session }: { session: RunSession }) {
  const live = session.state === 'running' || session.state === 'cancelling'
  const now = useNow(live)
  const t = sessionTotals(session)
  const elapsed = (session.endedAt ?? Math.max(now, session.startedAt)) - session.startedAt
  const progress = t.tasks === 0 ? 0 : t.done / t.tasks
  // n is the completed tasks (superred's ASR denominator: errors, timeouts and skips are not in it).
  const asr = rateWords(t.successes, t.completed, { unit: 'task', attacker: sessionAttacker(session) })
  return (
    <section className="rc-overview" aria-label="Progress">
      <div className="rc-row rc-row--spread">
        <div className="rc-row">
          <h2 className="rc-h2">{session.title}</h2>
          <span className={`rc-state rc-state--${session.state}`} role="status" data-testid="run-state">
            {STATE_TEXT[session.state]}
          </span>
        </div>
        {live ? (
          <button type="button" className="rc-btn rc-btn--danger" disabled={session.state === 'cancelling'} onClick={() => cancelRun()}>
            Cancel run
          </button>
        ) : null}
      </div>
      <div
        className="rc-progress"
        role="progressbar"
        aria-label="Tasks done"
        aria-valuemin={0}
        aria-valuemax={t.tasks}
        aria-valuenow={t.done}
      >
        <span className="rc-progress__bar" style={{ width: `${progress * 100}%` }} />
      </div>
      <div className="rc-stats">
        <Stat
          label="tasks done"
          testId="stat-done"
          value={`${t.done} / ${t.tasks}`}
          sub={t.models > 1 ? `${t.modelsDone} / ${t.models} threat models` : undefined}
        />
        <Stat
          label="attack success rate"
          testId="stat-asr"
          value={asr.headline}
          sub={asr.detail}
          title={`${asr.text}; the interval is the 95% Wilson score interval over completed tasks`}
        />
        <Stat
          label="running"
          testId="stat-running"
          value={String(t.running)}
          sub={t.models > 1 ? `${t.modelsRunning} threat models` : undefined}
        />
        <Stat
          label="LLM cost"
          testId="stat-cost"
          value={costText(t.cost, session.limits)}
          sub={session.limits.unpricedModel === null ? undefined : `no price for ${session.limits.unpricedModel}`}
        />
        <Stat label="elapsed" testId="stat-elapsed" value={duration(elapsed)} />
        {t.errors > 0 ? <Stat label="tasks with errors" testId="stat-errors" value={String(t.errors)} /> : null}
      </div>
      {session.error ? (
        <p className="rc-error" role="alert">
          {session.error}
        </p>
      ) : null}
      {session.state === 'cancelled' ? (
        <p className="rc-muted rc-small">Cancelled: finished tasks are saved; running the same threat model again resumes it.</p>
      ) : null}
    </section>
  )
}
