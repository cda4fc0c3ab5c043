import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { experimentsQuery } from '../queries/experiments'
import { sweepRecordQuery } from '../queries/sweep'
import { resultsKeys } from '../queries/keys'
import { SourcePicker } from '../sources/SourcePicker'
import { useResolvedSource } from '../sources/openSource'
import { useSourceActions, useSourcesStore, type OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { experimentHref } from '../paths'
import { shardNote } from './sweepNote'
import { TagNames } from '../common/TagNames'

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`)

/** Open a source, and list the experiments of the current one. */
export function HomePage() {
  const { src, navigate } = useResultsLocation()
  const source = useResolvedSource(src)
  const sources = useSourcesStore((s) => s.sources)
  const { add } = useSourceActions()
  const client = useQueryClient()
  const onOpened = (opened: OpenSource) => {
    add(opened)
    client.removeQueries({ queryKey: resultsKeys.source(opened.key) })
    navigate(`/?src=${encodeURIComponent(opened.key)}`)
  }
  return (
    <div className="results-page">
      <SourcePicker onOpened={onOpened} />
      {Object.keys(sources).length > 0 && (
        <nav className="source-tabs" aria-label="Open sources">
          {Object.values(sources).map((s) => (
            <Link key={s.key} href={`/?src=${encodeURIComponent(s.key)}`} aria-current={s.key === src ? 'page' : undefined}>
              {s.kind}: {s.label}
            </Link>
          ))}
        </nav>
      )}
      {source && src && <ExperimentList source={source} src={src} />}
    </div>
  )
}

function ExperimentList({ source, src }: { source: OpenSource; src: string }) {
  const { data, error, isPending } = useQuery(experimentsQuery(source, src))
  if (error) return <ErrorBox title={`Could not list the experiments of ${source.label}`} error={error} />
  if (isPending) return <p role="status">Reading {source.label}…</p>
  if (data.length === 0) {
    return (
      <p className="results-note">
        No experiment found in {source.label}: expected experiments.json, or folders with a manifest.json.
        {source.kind === 'url' && ' A server cannot list its folders: give the address of the results root, where experiments.json is.'}
      </p>
    )
  }
  return (
    <section aria-label="Experiments">
      <SweepBanner source={source} src={src} />
      <h2>Experiments in {source.label}</h2>
      <table className="results-table">
        <thead>
          <tr><th>Experiment</th><th>Attacker</th><th>Target</th><th>Claim</th><th>Model</th><th>Scope</th><th>Read only</th><th>Status</th><th>ASR</th><th>Success</th><th>Cost</th></tr>
        </thead>
        <tbody>
          {data.map((e) => (
            <tr key={e.dir}>
              <td><Link href={experimentHref(src, e.dir)}>{e.dir}</Link></td>
              <td>{e.experiment.attacker}</td>
              <td>{e.experiment.target}</td>
              <td>{e.experiment.claim}</td>
              <td>{e.experiment.model ?? 'no-llm'}</td>
              <td><TagNames names={e.experiment.scope} label={e.experiment.scope_label} /></td>
              <td><TagNames names={e.experiment.read_only} /></td>
              <td>{e.status}</td>
              <td>{pct(e.summary.asr)}</td>
              <td>{e.summary.n_success ?? '–'} / {e.summary.n_completed ?? '–'}</td>
              <td>${(e.summary.total_llm_usage?.cost ?? 0).toFixed(4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** A tree that holds a sweep (its sweep.json) says so, with the way to the painted forest and grid. */
function SweepBanner({ source, src }: { source: OpenSource; src: string }) {
  const { data, error } = useQuery(sweepRecordQuery(source, src))
  if (error) return <ErrorBox title={`${source.label} has a sweep.json that cannot be read; its experiments are listed below`} error={error} />
  if (!data) return null
  const note = shardNote(data)
  return (
    <p className="results-note" data-testid="sweep-banner">
      This folder holds a sweep: <strong>{data.title}</strong>{note ? ` (${note.charAt(0).toLowerCase()}${note.slice(1)})` : ''}.{' '}
      <Link href={`/sweep?src=${encodeURIComponent(src)}`}>Open the sweep</Link>
    </p>
  )
}
