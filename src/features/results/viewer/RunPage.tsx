import { useParams } from 'wouter'
import { itemIndexOfStep } from '../../../core/replay'
import { ErrorBox } from '../common/ErrorBox'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import type { RunRef } from '../paths'
import { RunViewer } from './RunViewer'
import { useRunReplay } from './useRunReplay'

interface Params {
  experiment: string
  task: string
  run: string
  event?: string
}

export function RunPage() {
  const p = useParams<Params>()
  const ref: RunRef = { experiment: p.experiment, task: p.task, run: Number(p.run) }
  // The address names a step by the number people see (1-based); the viewer works with item indices.
  const step = p.event === undefined ? 1 : Number(p.event)
  const event = itemIndexOfStep(step)
  if (!Number.isInteger(ref.run) || ref.run < 1 || !Number.isInteger(step) || step < 1) {
    return (
      <p className="results-error results-page" role="alert">
        This address does not name a run and step (expected …/run/step as numbers, steps from 1).
      </p>
    )
  }
  return <SourceGate>{(source, src) => <Run source={source} src={src} runRef={ref} event={event} />}</SourceGate>
}

function Run({ source, src, runRef, event }: { source: OpenSource; src: string; runRef: RunRef; event: number }) {
  const state = useRunReplay(source, src, runRef)
  if (state.status === 'error')
    return (
      <div className="results-page">
        <ErrorBox title={state.title} error={state.error} />
      </div>
    )
  if (state.status === 'loading')
    return (
      <p role="status" className="results-page">
        Reading {state.what}…
      </p>
    )
  return <RunViewer state={state} source={source} src={src} runRef={runRef} event={event} />
}
