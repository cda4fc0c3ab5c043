import { useMemo, useRef, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Link } from 'wouter'
import { diffRuns, type PersistedItemLike, type DiffRow } from '../../../core/replay'
import { ErrorBox } from '../common/ErrorBox'
import { experimentsQuery } from '../queries/experiments'
import { experimentQuery } from '../queries/experiment'
import { taskQuery } from '../queries/task'
import { trajectoryQuery } from '../queries/trajectory'
import { diffHref, parseRunRef, runHref, taskDirOf, taskSegment, type RunRef } from '../paths'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { DiffCell } from './DiffCell'

export function DiffPage() {
  return <SourceGate>{(source, src) => <Diff source={source} src={src} />}</SourceGate>
}

const ROW = 64

function useRun(source: OpenSource, src: string, ref: RunRef | null) {
  const dir = ref ? taskDirOf(ref.experiment, ref.task) : ''
  const task = useQuery({ ...taskQuery(source, src, dir), enabled: ref !== null })
  const traj = useQuery({ ...trajectoryQuery(source, src, dir, ref?.run ?? 0, 'full'), enabled: ref !== null })
  return { task, traj }
}

function Diff({ source, src }: { source: OpenSource; src: string }) {
  const { params } = useResultsLocation()
  const a = parseRunRef(params.get('a'))
  const b = parseRunRef(params.get('b'))
  const runA = useRun(source, src, a)
  const runB = useRun(source, src, b)
  const itemsA = runA.traj.data?.trajectory
  const itemsB = runB.traj.data?.trajectory
  const diff = useMemo(() => (itemsA && itemsB ? diffRuns(itemsA, itemsB) : null), [itemsA, itemsB])
  if (!a || !b)
    return (
      <p className="results-error results-page" role="alert">
        A diff needs two runs: ?a=experiment/task/run&b=experiment/task/run.
      </p>
    )
  const error = runA.task.error ?? runA.traj.error ?? runB.task.error ?? runB.traj.error
  return (
    <div className="results-page results-page--fill diff-page">
      <nav className="crumbs" aria-label="Breadcrumbs">
        <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> / diff
      </nav>
      <div className="diff-page__pickers">
        <RunPicker label="A" source={source} src={src} value={a} other={b} side="a" goalHash={runA.task.data?.task.goal_hash} />
        <RunPicker label="B" source={source} src={src} value={b} other={a} side="b" goalHash={runA.task.data?.task.goal_hash} />
      </div>
      {error ? <ErrorBox title="Could not read a run to compare" error={error} /> : null}
      {(runA.traj.data === null || runB.traj.data === null) && (
        <p className="results-error" role="alert">
          One of the runs has no trajectory file.
        </p>
      )}
      {!error && !diff && runA.traj.data !== null && runB.traj.data !== null && <p role="status">Reading both runs…</p>}
      {diff && itemsA && itemsB && (
        <DiffTable
          diff={diff.rows}
          a={itemsA}
          b={itemsB}
          counts={diff.counts}
          approximate={diff.approximate}
          hrefA={(i) => runHref(src, a, i)}
          hrefB={(i) => runHref(src, b, i)}
        />
      )}
    </div>
  )
}

interface TableProps {
  readonly diff: readonly DiffRow[]
  readonly a: readonly PersistedItemLike[]
  readonly b: readonly PersistedItemLike[]
  readonly counts: Readonly<Record<string, number>>
  readonly approximate: boolean
  readonly hrefA: (i: number) => string
  readonly hrefB: (i: number) => string
}

function DiffTable({ diff, a, b, counts, approximate, hrefA, hrefB }: TableProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({ count: diff.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 8 })
  return (
    <section className="diff" aria-label="Run diff">
      <p className="diff__summary" role="status">
        {counts.same} same · <span className="diff__k diff__k--changed">{counts.changed} changed</span> ·{' '}
        <span className="diff__k diff__k--removed">{counts.removed} only in A</span> ·{' '}
        <span className="diff__k diff__k--added">{counts.added} only in B</span>
        {approximate && ' · too different to align exactly: the middle is paired by position'}
      </p>
      <div className="diff__scroll" ref={scrollRef}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const r = diff[v.index]
            const other = (side: 'a' | 'b') => (side === 'a' ? (r.b >= 0 ? b[r.b] : null) : r.a >= 0 ? a[r.a] : null)
            return (
              <div
                key={v.index}
                className={`diff__row diff__row--${r.status}`}
                data-status={r.status}
                style={{ transform: `translateY(${v.start}px)`, height: ROW }}
              >
                <DiffCell item={r.a >= 0 ? a[r.a] : null} index={r.a} other={r.status === 'changed' ? other('a') : null} href={hrefA} />
                <DiffCell item={r.b >= 0 ? b[r.b] : null} index={r.b} other={r.status === 'changed' ? other('b') : null} href={hrefB} />
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
}

interface PickerProps {
  readonly label: string
  readonly source: OpenSource
  readonly src: string
  readonly value: RunRef
  readonly other: RunRef
  readonly side: 'a' | 'b'
  readonly goalHash: string | undefined
}

/** Choose a run: any experiment, any task (the same goal is preselected), any run. */
function RunPicker({ label, source, src, value, other, side, goalHash }: PickerProps) {
  const { navigate } = useResultsLocation()
  const client = useQueryClient()
  const experiments = useQuery(experimentsQuery(source, src))
  const experiment = useQuery(experimentQuery(source, src, value.experiment))
  const task = useQuery(taskQuery(source, src, taskDirOf(value.experiment, value.task)))
  const go = (next: RunRef) => navigate(side === 'a' ? diffHref(src, next, other) : diffHref(src, other, next), { replace: true })
  const tasks = experiment.data?.manifest.tasks.filter((t) => t.dir !== null) ?? []
  const [pickError, setPickError] = useState<unknown>(null)
  const pickExperiment = async (dir: string) => {
    setPickError(null)
    try {
      // Prefer the task with the same goal in the other threat model.
      const record = await client.fetchQuery(experimentQuery(source, src, dir))
      const same =
        record.manifest.tasks.find((t) => t.goal_hash === goalHash && t.dir !== null) ?? record.manifest.tasks.find((t) => t.dir !== null)
      if (same?.dir) go({ experiment: dir, task: taskSegment(same.dir), run: 1 })
      else setPickError(new Error(`${dir} has no task with a folder to compare.`))
    } catch (error) {
      setPickError(error)
    }
  }
  return (
    <fieldset className="run-picker">
      <legend>Run {label}</legend>
      <select aria-label={`Experiment ${label}`} value={value.experiment} onChange={(e) => void pickExperiment(e.target.value)}>
        {(experiments.data ?? [{ dir: value.experiment }]).map((x) => (
          <option key={x.dir} value={x.dir}>
            {x.dir}
          </option>
        ))}
      </select>
      <select aria-label={`Task ${label}`} value={value.task} onChange={(e) => go({ ...value, task: e.target.value, run: 1 })}>
        {tasks.length === 0 && <option value={value.task}>{value.task}</option>}
        {tasks.map((t) => (
          <option key={t.dir} value={taskSegment(t.dir!)}>
            {t.index}. {t.goal}
            {t.goal_hash === goalHash && side === 'b' ? ' (same goal)' : ''}
          </option>
        ))}
      </select>
      <select aria-label={`Run ${label} number`} value={value.run} onChange={(e) => go({ ...value, run: Number(e.target.value) })}>
        {(task.data?.iterations?.runs ?? [{ run_number: value.run }]).map((r) => (
          <option key={r.run_number} value={r.run_number}>
            run {r.run_number}
          </option>
        ))}
      </select>
      <Link href={runHref(src, value)}>open</Link>
      {pickError ? <ErrorBox title="Could not pick that experiment" error={pickError} /> : null}
    </fieldset>
  )
}
