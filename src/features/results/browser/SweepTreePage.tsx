/**
 * A sweep opened from a results tree (a sweep's zip from the run console, or
 * the shards of a headless sweep merged by `redscope merge`): painted as the
 * run console paints a sweep it ran, with each row opening its experiment
 * here in the viewer.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { SweepAnalysis } from '../../../components/sweep/SweepAnalysis'
import { rowsFromManifests } from '../../../core/sweep'
import { ErrorBox } from '../common/ErrorBox'
import { experimentHref } from '../paths'
import { sweepManifestsQuery, sweepRecordQuery } from '../queries/sweep'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import { shardNote } from './sweepNote'
import { plural } from '../../../lib/plural'
import { ReportButton } from '../../../components/ReportButton'

export function SweepTreePage() {
  return <SourceGate>{(source, src) => <Sweep source={source} src={src} />}</SourceGate>
}

function Sweep({ source, src }: { source: OpenSource; src: string }) {
  const record = useQuery(sweepRecordQuery(source, src))
  const manifests = useQuery({ ...sweepManifestsQuery(source, src, record.data!), enabled: !!record.data })
  const crumbs = (
    <nav className="crumbs" aria-label="Breadcrumbs">
      <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> / <span>sweep</span>
    </nav>
  )
  if (record.error) return <div className="results-page">{crumbs}<ErrorBox title={`Could not read the sweep of ${source.label}`} error={record.error} /></div>
  if (record.isPending) return <p role="status" className="results-page">Reading {source.label}…</p>
  if (record.data === null) return <div className="results-page">{crumbs}<p className="results-note">{source.label} holds no sweep (no sweep.json at its root).</p></div>
  if (manifests.error) return <div className="results-page">{crumbs}<ErrorBox title="Could not read the sweep's experiments" error={manifests.error} /></div>
  if (!manifests.data) return <p role="status" className="results-page">Reading the {plural(record.data.models.length, 'experiment')} of the sweep…</p>
  const rows = rowsFromManifests(record.data, manifests.data)
  return (
    <div className="results-page results-page--fill">
      {crumbs}
      <p><ReportButton storage={source.storage} sourceLabel={source.label} dirs={record.data.models.map((m) => m.dir)} kind="sweep" fileName={`sweep-${record.data.title}`} title={record.data.title} /></p>
      <SweepAnalysis record={record.data} rows={rows} openHref={(dir) => experimentHref(src, dir)} note={shardNote(record.data)} />
    </div>
  )
}
