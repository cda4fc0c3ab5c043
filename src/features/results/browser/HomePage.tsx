import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { landingSourceQuery } from '../queries/landing'
import { compareHref } from '../paths'
import { resultsKeys } from '../../../queries/resultsKeys'
import { SourcePicker } from '../sources/SourcePicker'
import { useResolvedSource } from '../sources/openSource'
import { currentSiteSource, useSourceActions, useSourcesStore, type OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { ExperimentList } from './ExperimentList'

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
  const site = currentSiteSource()
  const landing = useQuery({ ...landingSourceQuery(), enabled: src === null && site === null })
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
      {site ? <ExperimentList source={site} src={site.key} /> : source && src && <ExperimentList source={source} src={src} />}
      {!site && (
        <p className="compare-entry">
          <Link href={compareHref(src, null)}>Compare two results…</Link>{' '}
          <span className="results-note">
            BASE against HEAD: regressions, fixes and the frontier's new minimal winners, painted on the forest.
          </span>
        </p>
      )}
      {!site && <SourcePicker onOpened={onOpened} />}
      {!site && Object.keys(sources).length > 0 && (
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
