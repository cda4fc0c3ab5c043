import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { CostChart } from '../diff/CostChart'
import { diffHref, runHref, taskDirOf } from '../paths'
import { taskQuery } from '../queries/task'
import { experimentQuery } from '../queries/experiment'
import { configText, costShort, costWords, runEndWords, sumUnpriced, taskHeld } from '../../../core/results'
import { rateWords } from '../../../core/stats'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { TagNames } from '../common/TagNames'
import { plural } from '../../../lib/plural'
import { duringText, notesByRun, type RunNotes } from './attackerNotes'

export function TaskPage() {
  const { experiment, task } = useParams<{ experiment: string; task: string }>()
  return <SourceGate>{(source, src) => <Task source={source} src={src} experiment={experiment} task={task} />}</SourceGate>
}

function Task({ source, src, experiment, task }: { source: OpenSource; src: string; experiment: string; task: string }) {
  const { navigate } = useResultsLocation()
  const { data, error, isPending } = useQuery(taskQuery(source, src, taskDirOf(experiment, task)))
  // The experiment's task_configs.json says which configuration (defence) this task faced; usually cached from its page.
  const exp = useQuery(experimentQuery(source, src, experiment)).data
  const configs = exp?.taskConfigs
  const [a, setA] = useState<number | null>(null)
  const [b, setB] = useState<number | null>(null)
  if (error)
    return (
      <div className="results-page">
        <ErrorBox title={`Could not open the task ${task}`} error={error} />
      </div>
    )
  if (isPending)
    return (
      <p role="status" className="results-page">
        Reading {task}…
      </p>
    )
  const t = data.task
  const runs = data.iterations?.runs ?? []
  // A task that held says how little was tried and the most its per-run success rate can be (src/core/stats).
  const attacker = exp?.manifest.experiment.attacker ?? null
  const held = taskHeld(t.status, t.n_runs) ? rateWords(0, t.n_runs, { unit: 'run', attacker }).text : null
  const echoed = new Map((data.echoes?.runs ?? []).map((r) => [r.run_number, r]))
  // run_records.json (redscope extra): why each run ended and its unpriced calls; absent in older and superred's trees.
  const records = new Map((data.runRecords?.runs ?? []).map((r) => [r.run_number, r]))
  const taskUnpriced = data.runRecords?.unpriced ?? exp?.unpriced.get(t.index) ?? null
  const unpricedUpTo = (run: number) => sumUnpriced([...records.values()].filter((r) => r.run_number <= run).map((r) => r.unpriced))
  const ref = (run: number) => ({ experiment, task, run })
  const first = runs[0]?.run_number
  const pickA = a ?? first ?? 1
  const pickB = b ?? runs[1]?.run_number ?? pickA
  return (
    <div className="results-page">
      <nav className="crumbs" aria-label="Breadcrumbs">
        <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> /{' '}
        <Link href={`/${encodeURIComponent(experiment)}?src=${encodeURIComponent(src)}`}>{experiment}</Link> / <span>{task}</span>
      </nav>
      <h2 className="task-goal">{t.goal}</h2>
      <p>
        <span className={`status status--${t.status}`}>{t.status}</span> · stop {t.stop_reason} · best score {t.best_score.value} ·{' '}
        {plural(t.n_runs, 'run')}
        {held ? <span data-testid="task-held"> ({held})</span> : null} ·{' '}
        <span data-testid="task-cost">{costWords(t.llm_usage.cost, taskUnpriced, { calls: t.llm_usage.calls })}</span> · scope{' '}
        <TagNames names={t.scope} /> · read only <TagNames names={t.read_only} />
      </p>
      {echoed.size > 0 && (
        <p className="echo-summary" data-testid="task-echoes">
          {plural(echoed.size, 'run')} of {runs.length} succeeded only on text the attacker injected itself (echoed):
          {data.echoes!.count_echoes ? ' counted as successes (echoes were counted).' : ' not counted as successes.'}
        </p>
      )}
      {configs?.has(t.index) && (
        <p data-testid="task-config">
          Configuration: <code>{configText(configs.get(t.index))}</code>
        </p>
      )}
      {t.error && (
        <details className="results-error">
          <summary>Error</summary>
          <pre>{t.error}</pre>
        </details>
      )}
      {runs.length === 0 && <p className="results-note">No runs recorded (iterations.json is missing or empty).</p>}
      {runs.length > 0 && (
        <div className="task-runs">
          <table className="results-table" aria-label="Runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>Score</th>
                <th>Success</th>
                <th>Echo</th>
                <th>Judged</th>
                <th title="The optimizer's answer to the run's end: done ends the task">Optimizer done</th>
                <th title="Why the run ended: the target finished, the attacker declined, its turn limit, the task's time cap, an error">
                  Ended
                </th>
                <th>Cost</th>
                <th>Cumulative</th>
                <th>Seconds</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.run_number}>
                  <td>
                    <Link href={runHref(src, ref(r.run_number))}>Run {r.run_number}</Link>
                  </td>
                  <td>{r.primary_score}</td>
                  <td>{r.success ? 'yes' : 'no'}</td>
                  <td data-testid={echoed.has(r.run_number) ? 'run-echo' : undefined}>
                    {echoed.has(r.run_number) ? `echoed${echoed.get(r.run_number)!.counted ? ' (counted)' : ' (not counted)'}` : ''}
                  </td>
                  <td>{r.errored ? 'errored' : r.evaluated ? 'yes' : 'no'}</td>
                  <td>{r.done ? 'done' : '–'}</td>
                  <td
                    data-testid="run-ended"
                    title={
                      records.has(r.run_number)
                        ? runEndWords(records.get(r.run_number)!.ended_by, records.get(r.run_number)!.turns, true)
                        : undefined
                    }
                  >
                    {records.has(r.run_number) ? runEndWords(records.get(r.run_number)!.ended_by) : '–'}
                  </td>
                  <td title={costWords(r.usage_delta.cost, records.get(r.run_number)?.unpriced, { calls: r.usage_delta.calls })}>
                    {costShort(r.usage_delta.cost, records.get(r.run_number)?.unpriced ?? (records.size === 0 ? taskUnpriced : null), {
                      calls: r.usage_delta.calls,
                    })}
                  </td>
                  <td title={costWords(r.usage_cumulative.cost, unpricedUpTo(r.run_number), { calls: r.usage_cumulative.calls })}>
                    {costShort(r.usage_cumulative.cost, records.size === 0 ? taskUnpriced : unpricedUpTo(r.run_number), {
                      calls: r.usage_cumulative.calls,
                    })}
                  </td>
                  <td>{r.timing.duration_s?.toFixed(3) ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <CostChart
            unpriced={taskUnpriced !== null}
            runs={runs.map((r) => ({
              run: r.run_number,
              score: r.primary_score,
              success: r.success,
              cumulativeCost: r.usage_cumulative.cost,
              evaluated: r.evaluated,
            }))}
            onPick={(run) => navigate(runHref(src, ref(run)))}
          />
          <AttackerNotes runs={notesByRun(data.attackerNotes)} />
          <form
            className="compare-form"
            onSubmit={(e) => {
              e.preventDefault()
              navigate(diffHref(src, ref(pickA), ref(pickB)))
            }}
          >
            <span>Compare</span>
            <select aria-label="Run A" value={pickA} onChange={(e) => setA(Number(e.target.value))}>
              {runs.map((r) => (
                <option key={r.run_number} value={r.run_number}>
                  run {r.run_number}
                </option>
              ))}
            </select>
            <span>with</span>
            <select aria-label="Run B" value={pickB} onChange={(e) => setB(Number(e.target.value))}>
              {runs.map((r) => (
                <option key={r.run_number} value={r.run_number}>
                  run {r.run_number}
                </option>
              ))}
            </select>
            <button type="submit">Diff runs</button>
          </form>
        </div>
      )}
    </div>
  )
}

/**
 * What the attacker said of its own reasoning, run by run (a served superred optimizer's LLM replies, kept as
 * attacker_notes.json): PAIR's improvement and the prompt it proposes, so a run can be explained step by step.
 */
function AttackerNotes({ runs }: { runs: readonly RunNotes[] }) {
  if (runs.length === 0) return null
  return (
    <section className="attacker-notes" aria-label="The attacker's reasoning">
      <h3>The attacker&apos;s reasoning</h3>
      <p className="results-note">
        What the optimizer&apos;s own model answered, in the order it came; proposals made as a run started are usually for that run and the
        ones after it.
      </p>
      <ol>
        {runs.map((r) => (
          <li key={r.run} data-run={r.run}>
            <strong>{r.run === 0 ? 'Before the first run' : `Run ${r.run}`}</strong>
            <ul>
              {r.notes.map((n, i) => (
                <li key={i}>
                  <span className="attacker-notes__when">{duringText(n.during)}</span>
                  {n.fields === null ? (
                    <pre className="attacker-notes__text">{n.text}</pre>
                  ) : (
                    <dl>
                      {n.fields.map(([k, v]) => (
                        <div key={k}>
                          <dt>{k}</dt>
                          <dd>{v}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  )
}
