/**
 * /results/frontier: a frontier search's answer. With `?id=`, a search kept
 * by this browser (the Run page's); without, the frontier.json of the source
 * (a folder `redscope view` serves, a zip, a bundle).
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { experimentHref } from '../paths'
import { browserFrontierQuery, frontierFileQuery } from '../queries/sweep'
import { SourceGate } from '../SourceGate'
import type { OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { FrontierAnswer } from './FrontierAnswer'

export function FrontierPage() {
  const { params } = useResultsLocation()
  const id = params.get('id')
  return (
    <SourceGate>{(source, src) => (id ? <Kept source={source} src={src} id={id} /> : <InTree source={source} src={src} />)}</SourceGate>
  )
}

const crumbs = (source: OpenSource, src: string) => (
  <nav className="crumbs" aria-label="Breadcrumbs">
    <Link href={`/?src=${encodeURIComponent(src)}`}>{source.label}</Link> / <span>frontier</span>
  </nav>
)

function Kept({ source, src, id }: { source: OpenSource; src: string; id: string }) {
  const q = useQuery(browserFrontierQuery(src, id))
  if (q.error)
    return (
      <div className="results-page">
        {crumbs(source, src)}
        <ErrorBox title={`Could not read the frontier search ${id} of this browser`} error={q.error} />
      </div>
    )
  if (!q.data)
    return (
      <p role="status" className="results-page">
        Reading the frontier search…
      </p>
    )
  return (
    <div className="results-page">
      {crumbs(source, src)}
      <p className="results-muted">
        {q.data.title} · run in this browser {new Date(q.data.createdAt).toLocaleString()}
      </p>
      <FrontierAnswer file={q.data.file} source="The frontier search kept in this browser" href={(dir) => experimentHref(src, dir)} />
    </div>
  )
}

function InTree({ source, src }: { source: OpenSource; src: string }) {
  const q = useQuery(frontierFileQuery(source, src))
  if (q.error)
    return (
      <div className="results-page">
        {crumbs(source, src)}
        <ErrorBox title={`frontier.json of ${source.label} cannot be read`} error={q.error} />
      </div>
    )
  if (q.isPending)
    return (
      <p role="status" className="results-page">
        Reading {source.label}…
      </p>
    )
  if (q.data === null)
    return (
      <div className="results-page">
        {crumbs(source, src)}
        <p className="results-note">{source.label} holds no frontier search (no frontier.json at its root).</p>
      </div>
    )
  return (
    <div className="results-page">
      {crumbs(source, src)}
      <FrontierAnswer file={q.data} source={`frontier.json of ${source.label}`} href={(dir) => experimentHref(src, dir)} />
    </div>
  )
}
