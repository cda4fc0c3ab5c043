import { useCallback, useRef, useState, type KeyboardEvent } from 'react'
import { Link } from 'wouter'
import { MARK_LABELS } from '../../../core/replay'
import { useRunAnnotations } from '../annotations/useRunAnnotations'
import { ForestAttach } from '../forest/ForestAttach'
import { diffHref, experimentHref, runHref, taskHref, type RunRef } from '../paths'
import type { OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { ExportDialog } from '../export/ExportDialog'
import { isTyping, keyAction, KEY_HELP } from './keys'
import { Legend } from './Legend'
import { PresenterView } from './PresenterView'
import { echoItemIndices, echoOf, iterationOf, neighbourRuns, runEndEvaluation } from './runInfo'
import { EchoNote } from './EchoNote'
import { configText, costWords, runEndWords, sumUnpriced } from '../../../core/results'
import { Scrubber } from './Scrubber'
import { StepPanel } from './StepPanel'
import { TrajectoryTable, type TableHandle } from './TrajectoryTable'
import type { RunReplayState } from './useRunReplay'
import { stepTarget } from './useStepper'

interface Props {
  readonly state: Extract<RunReplayState, { status: 'ready' }>
  readonly source: OpenSource
  readonly src: string
  readonly runRef: RunRef
  readonly event: number
}

/** One run: header, legend, scrubber, the aligned table and the selected step; or the presenter. */
export function RunViewer({ state, source, src, runRef, event }: Props) {
  const { replay, task, forest } = state
  // Which configuration this task ran with (the demo claims' defence), when the tree records it.
  const taskConfig = configText(state.experiment.taskConfigs.get(task.task.index))
  const { params, navigate } = useResultsLocation()
  const present = params.get('present') === '1'
  const table = useRef<TableHandle>(null)
  const rootRef = useRef<HTMLDivElement | null>(null)
  // Keys work as soon as the viewer shows: focus it once when it mounts.
  const focusOnMount = useCallback((el: HTMLDivElement | null) => {
    rootRef.current = el
    el?.focus({ preventScroll: true })
  }, [])
  const [hint, setHint] = useState<string | null>(null)
  const [exporting, setExporting] = useState(false)
  const address = { experiment: runRef.experiment, task: runRef.task, run: runRef.run }
  const { annotations, save, toggleBookmark, error: annotationError } = useRunAnnotations(address)
  const row = replay.rowOfItem(event)
  const runs = neighbourRuns(task, runRef.run)
  const iteration = iterationOf(task, runRef.run)
  // run_records.json (redscope extra): why this run ended, and the unpriced calls up to it.
  const record = task.runRecords?.runs.find((r) => r.run_number === runRef.run) ?? null
  const unpricedSoFar =
    task.runRecords === null
      ? (state.experiment.unpriced.get(task.task.index) ?? null)
      : sumUnpriced(task.runRecords.runs.filter((r) => r.run_number <= runRef.run).map((r) => r.unpriced))
  const evaluation = runEndEvaluation(replay.items)
  const echo = echoOf(task, runRef.run)
  const echoItems = echoItemIndices(replay.items, echo)
  const learned = replay.learnedCount()
  const fileStem = `${runRef.experiment}-${runRef.task}-run${runRef.run}`

  const select = (r: number, opts: { present?: boolean } = { present }) => {
    const index = replay.itemOfRow(r)
    navigate(runHref(src, runRef, index >= 0 ? index : undefined, opts), { replace: true })
    table.current?.scrollToRow(r)
  }
  const togglePresenter = (on: boolean) => {
    navigate(runHref(src, runRef, replay.itemOfRow(row), { present: on }), { replace: true })
    if (on) void document.documentElement.requestFullscreen?.().catch(() => undefined)
    else if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined)
  }
  const perform = (e: KeyboardEvent) => {
    if (isTyping(e.target)) return
    const action = keyAction(e)
    if (action === null) return
    const target = stepTarget(action, replay, row, annotations, runs)
    e.preventDefault()
    setHint(target.kind === 'none' ? (target.why ?? null) : null)
    switch (target.kind) {
      case 'row':
        return select(target.row)
      case 'run':
        return navigate(runHref(src, { ...runRef, run: target.run }, 0, { present }))
      case 'bookmark':
        return toggleBookmark(replay.itemOfRow(row))
      case 'presenter':
        return togglePresenter(!present)
      case 'exit':
        if (present) togglePresenter(false)
        return
      case 'none':
        return
    }
  }

  if (present) {
    return (
      <div key="presenter" ref={focusOnMount} className="presenter-root" tabIndex={0} onKeyDown={perform} aria-label="Presenter">
        <PresenterView
          replay={replay}
          row={row}
          forest={forest.forest}
          annotation={annotations.get(replay.itemOfRow(row))}
          title={task.task.goal}
          runNumber={runRef.run}
          hint={hint}
          onStep={(r) => select(r)}
          onExit={() => togglePresenter(false)}
          onToggleBookmark={() => toggleBookmark(replay.itemOfRow(row))}
          echo={echo ? { counted: echo.counted, items: echoItems } : null}
        />
      </div>
    )
  }

  return (
    <div key="viewer" ref={focusOnMount} className="run-viewer" tabIndex={0} onKeyDown={perform} aria-label="Run viewer">
      <header className="run-viewer__header">
        <nav className="crumbs" aria-label="Breadcrumbs">
          <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> /{' '}
          <Link href={experimentHref(src, runRef.experiment)}>{runRef.experiment}</Link>
          {' / '}
          <Link href={taskHref(src, runRef.experiment, runRef.task)}>{task.task.goal}</Link> / <strong>run {runRef.run}</strong>
        </nav>
        <div className="run-viewer__runs">
          {runs.prev !== null && <Link href={runHref(src, { ...runRef, run: runs.prev })}>← run {runs.prev}</Link>}
          {runs.next !== null && <Link href={runHref(src, { ...runRef, run: runs.next })}>run {runs.next} →</Link>}
        </div>
        <div className="run-viewer__score" aria-label="Evaluation">
          {evaluation ? (
            <>
              <span className={evaluation.success ? 'verdict verdict--write' : 'verdict'}>
                {evaluation.success ? 'success' : 'no success'}
              </span>
              {echo && (
                <span className="verdict verdict--echo" data-testid="run-echoed">
                  echoed
                </span>
              )}{' '}
              score <strong>{evaluation.primary_score.value}</strong>
            </>
          ) : iteration ? (
            <>
              score <strong>{iteration.primary_score}</strong>
              {iteration.errored ? ' (errored)' : ''}
            </>
          ) : (
            'no evaluation'
          )}
          {iteration && (
            <>
              {' '}
              · cumulative cost{' '}
              <strong data-testid="run-cost">
                {costWords(iteration.usage_cumulative.cost, unpricedSoFar, { calls: iteration.usage_cumulative.calls })}
              </strong>{' '}
              ({iteration.usage_cumulative.calls} calls)
            </>
          )}
          {record?.ended_by && (
            <>
              {' '}
              · <span data-testid="run-ended">{runEndWords(record.ended_by, record.turns, true)}</span>
            </>
          )}
        </div>
        <div className="run-viewer__actions">
          <button type="button" onClick={() => togglePresenter(true)}>
            Presenter
          </button>
          {runs.next !== null && (
            <Link className="button" href={diffHref(src, runRef, { ...runRef, run: runs.next })}>
              Diff with run {runs.next}
            </Link>
          )}
          {runs.next === null && runs.prev !== null && (
            <Link className="button" href={diffHref(src, { ...runRef, run: runs.prev }, runRef)}>
              Diff with run {runs.prev}
            </Link>
          )}
          <button type="button" onClick={() => setExporting(true)}>
            Export finding…
          </button>
        </div>
      </header>
      <div className="run-viewer__facts">
        {taskConfig && (
          <span data-testid="task-config">
            Configuration: <code>{taskConfig}</code>
          </span>
        )}
        <span data-testid="hidden-facts">
          {replay.rows.toLocaleString('en-US')} events · {replay.hiddenCount.toLocaleString('en-US')} hidden from the attacker
          {learned > 0 && <>, of which {learned.toLocaleString('en-US')} reached it at the run’s end through the evaluation’s feedback</>}
        </span>
        <span>
          Attacker view:{' '}
          {replay.viewSource === 'attacker-file'
            ? "recorded in the run's attacker file"
            : replay.viewSource === 'derived'
              ? `derived with the engine's filter from the run, ${state.grantFrom}'s grant and the experiment's forest`
              : `recomputed from ${state.grantFrom}'s grant`}{' '}
          (scope <code>{replay.coverage.grant.scope.join(', ') || '∅'}</code>, read only{' '}
          <code>{replay.coverage.grant.readOnly.join(', ') || '∅'}</code>)
        </span>
        {evaluation?.rationale && <span className="run-viewer__rationale">Rationale: {evaluation.rationale}</span>}
      </div>
      {echo && <EchoNote echo={echo} />}
      <ForestAttach experiment={runRef.experiment} state={forest} />
      <Legend />
      <Scrubber replay={replay} row={row} onSeek={(r) => select(r)} />
      {hint && (
        <p className="run-viewer__hint" role="status">
          {hint}
        </p>
      )}
      {annotationError && (
        <p className="results-error" role="alert">
          Notes could not be saved or read: {String(annotationError)}
        </p>
      )}
      <div className="run-viewer__main">
        <TrajectoryTable
          handle={table}
          replay={replay}
          selected={row}
          annotations={annotations}
          echoItems={echoItems}
          onSelect={(r) => {
            rootRef.current?.focus()
            select(r)
          }}
        />
        <StepPanel
          replay={replay}
          row={row}
          annotation={annotations.get(replay.itemOfRow(row))}
          fileStem={fileStem}
          onSave={(v) => save(replay.itemOfRow(row), v)}
        />
      </div>
      <details className="run-viewer__keys">
        <summary>Keyboard</summary>
        <ul>
          {KEY_HELP.map(([k, what]) => (
            <li key={k}>
              <kbd>{k}</kbd> {what}
            </li>
          ))}
        </ul>
        <p className="results-note">Marks: {Object.values(MARK_LABELS).join(' · ')}</p>
      </details>
      {exporting && <ExportDialog state={state} runRef={runRef} annotations={annotations} onClose={() => setExporting(false)} />}
    </div>
  )
}
