import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { experimentsQuery } from '../queries/experiments'
import { landingSourceQuery } from '../queries/landing'
import { sweepRecordQuery } from '../queries/sweep'
import { resultsKeys } from '../queries/keys'
import { SourcePicker } from '../sources/SourcePicker'
import { useResolvedSource } from '../sources/openSource'
import { isLiveSource, useSourceActions, useSourcesStore, type OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { experimentHref } from '../paths'
import { shardNote } from './sweepNote'
import { viewExperiments, whenText } from './experimentRows'

/**
 * The Results tab. Without a source in the address it lands on the folder
 * `redscope view` serves, else on this browser's runs when there are any,
 * else on the ways to open results. With one, it lists its experiments.
 */
export function HomePage() {
  const { src, navigate } = useResultsLocation()
  const source = useResolvedSource(src)
  const sources = useSourcesStore((s) => s.sources)
  const { add } = useSourceActions()
  const client = useQueryClient()
  const landing = useQuery({ ...landingSourceQuery(), enabled: src === null })
  const landingKey = landing.data?.key
  useEffect(() => {
    if (src === null && landingKey) navigate(`/?src=${encodeURIComponent(landingKey)}`, { replace: true })
  }, [src, landingKey, navigate])
  const onOpened = (opened: OpenSource) => {
    add(opened)
    client.removeQueries({ queryKey: resultsKeys.source(opened.key) })
    navigate(`/?src=${encodeURIComponent(opened.key)}`)
  }
  return (
    <div className="results-page">
      {source && src && <ExperimentList source={source} src={src} />}
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
    </div>
  )
}

function ExperimentList({ source, src }: { source: OpenSource; src: string }) {
  const { data, error, isPending } = useQuery(experimentsQuery(source, src))
  const [query, setQuery] = useState('')
  if (error) return <ErrorBox title={`Could not list the experiments of ${source.label}`} error={error} />
  if (isPending) return <p role="status">Reading {source.label}…</p>
  const live = isLiveSource(source)
  if (data.length === 0) {
    return (
      <p className="results-note" data-testid="no-experiments">
        No experiment found in {source.label}{live ? ' yet: this page shows them as they are written' : ''}: expected experiments.json, or folders with a manifest.json.
        {source.kind === 'url' && ' A server cannot list its folders: give the address of the results root, where experiments.json is.'}
      </p>
    )
  }
  const rows = viewExperiments(data, query)
  return (
    <section aria-label="Experiments">
      <SweepBanner source={source} src={src} />
      <div className="experiments-head">
        <h2>Experiments in {source.label} <span className="results-muted">({data.length})</span></h2>
        {live && <span className="live-note" role="status">live: refreshes as the folder is written</span>}
        <input type="search" placeholder="Filter: threat model, target, claim, attacker…" aria-label="Filter experiments"
          value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <table className="results-table experiments-table">
        <thead>
          <tr><th>Threat model</th><th>Target</th><th>Claim</th><th>Attacker</th><th>When</th><th>Outcome</th><th>Folder</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.dir} data-testid="experiment-row" data-dir={r.dir} className={r.inProgress ? 'experiment-row--live' : undefined}>
              <td><Link href={experimentHref(src, r.dir)} title={r.named ? 'saved threat model' : 'granted tags'}>{r.threatModel}</Link></td>
              <td>{r.target}</td>
              <td>{r.claim}</td>
              <td>{r.attacker}</td>
              <td title={r.when ?? undefined}>{whenText(r.when)}</td>
              <td className={r.inProgress ? 'status status--live' : undefined}>{r.outcome}</td>
              <td className="results-muted results-small"><Link href={experimentHref(src, r.dir)}>{r.dir}</Link></td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="results-note">No experiment matches “{query}”.</p>}
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
