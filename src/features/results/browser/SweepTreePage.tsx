/**
 * A sweep opened from a results tree (a sweep's zip from the run console, or
 * the shards of a headless sweep merged by `redscope merge`): painted as the
 * run console paints a sweep it ran, with each row opening its experiment
 * here in the viewer.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { answerWords, type FrontierFile } from '../../../core/frontier'
import { rowsFromManifests, type SweepRecord } from '../../../core/sweep'
import { SweepAnalysis, type KnownFrontier } from '../../../components/sweep/SweepAnalysis'
import { ErrorBox } from '../common/ErrorBox'
import { experimentHref } from '../paths'
import { frontierFileQuery, sweepManifestsQuery, sweepRecordQuery } from '../queries/sweep'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import { shardNote } from './sweepNote'
import { plural } from '../../../lib/plural'
import { ReportButton } from '../../../components/ReportButton'

export function SweepTreePage() {
  return <SourceGate>{(source, src) => <Sweep source={source} src={src} />}</SourceGate>
}

/**
 * The tree's frontier, when it answers the sweep's question (same target, claim and attacker, the same forest where
 * the file records one) and is complete: the painting then shows the frontier's view.
 */
function knownFrontier(file: FrontierFile | null | undefined, record: SweepRecord, label: string): KnownFrontier | null {
  if (!file || !file.complete || file.shard !== null) return null
  const s = file.search
  if (s.target !== record.target || s.claim !== record.claim || s.attacker !== record.attacker) return null
  if (
    file.forest &&
    JSON.stringify(file.forest.tags.map((t) => [t.name, t.parent])) !== JSON.stringify(record.forest.tags.map((t) => [t.name, t.parent]))
  )
    return null
  return {
    minimalWins: file.claim.minimal_wins.map((m) => ({ scope: m.scope, readOnly: m.read_only })),
    source: `The frontier of frontier.json in ${label} (${file.evaluated} threat models run)`,
    answer: answerWords(file),
  }
}

function Sweep({ source, src }: { source: OpenSource; src: string }) {
  const record = useQuery(sweepRecordQuery(source, src))
  const frontierFile = useQuery(frontierFileQuery(source, src))
  const manifests = useQuery(sweepManifestsQuery(source, src, record.data))
  const crumbs = (
    <nav className="crumbs" aria-label="Breadcrumbs">
      <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> / <span>sweep</span>
    </nav>
  )
  if (record.error)
    return (
      <div className="results-page">
        {crumbs}
        <ErrorBox title={`Could not read the sweep of ${source.label}`} error={record.error} />
      </div>
    )
  if (record.isPending)
    return (
      <p role="status" className="results-page">
        Reading {source.label}…
      </p>
    )
  if (record.data === null)
    return (
      <div className="results-page">
        {crumbs}
        <p className="results-note">{source.label} holds no sweep (no sweep.json at its root).</p>
      </div>
    )
  if (manifests.error)
    return (
      <div className="results-page">
        {crumbs}
        <ErrorBox title="Could not read the sweep's experiments" error={manifests.error} />
      </div>
    )
  if (!manifests.data)
    return (
      <p role="status" className="results-page">
        Reading the {plural(record.data.models.length, 'experiment')} of the sweep…
      </p>
    )
  const rows = rowsFromManifests(record.data, manifests.data)
  const frontier = knownFrontier(frontierFile.data, record.data, source.label)
  return (
    <div className="results-page results-page--fill">
      {crumbs}
      <p>
        <ReportButton
          storage={source.storage}
          sourceLabel={source.label}
          dirs={record.data.models.map((m) => m.dir)}
          kind="sweep"
          fileName={`sweep-${record.data.title}`}
          title={record.data.title}
          frontier={frontier}
        />
      </p>
      {frontierFile.error ? (
        <p className="results-note">
          frontier.json is here but cannot be read ({frontierFile.error.message}): the forest is painted from the sweep alone.
        </p>
      ) : null}
      <SweepAnalysis
        record={record.data}
        rows={rows}
        openHref={(dir) => experimentHref(src, dir)}
        note={shardNote(record.data)}
        frontier={frontier}
      />
    </div>
  )
}
