import type { ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { resultsKeys } from '../../queries/resultsKeys'
import { SourcePicker } from './sources/SourcePicker'
import { useResolvedSource } from './sources/openSource'
import { currentSiteSource, parseSourceKey, useSourceActions, type OpenSource } from './sourcesStore'
import { useResultsLocation } from './useResultsLocation'

interface Props {
  readonly children: (source: OpenSource, src: string) => ReactNode
}

/**
 * Renders its children with the source the address names; when that source
 * is not open in this page (a link opened in a fresh browser), asks for it,
 * then continues to the very same place.
 */
export function SourceGate({ children }: Props) {
  const { src, navigate, withParam } = useResultsLocation()
  const source = useResolvedSource(src)
  const { add } = useSourceActions()
  const client = useQueryClient()
  if (source && src && !currentSiteSource()) return <>{children(source, src)}</>
  // A static bundle's one tree, whatever the address says.
  if (source && currentSiteSource()) return <>{children(source, source.key)}</>
  const parsed = src ? parseSourceKey(src) : null
  const onOpened = (opened: OpenSource) => {
    add(opened)
    client.removeQueries({ queryKey: resultsKeys.source(opened.key) })
    navigate(withParam('src', opened.key), { replace: true })
  }
  return (
    <div className="results-page">
      {src === null ? (
        <p className="results-note">No results source in this address.</p>
      ) : parsed === null ? (
        <p className="results-error" role="alert">
          This address names an unknown results source.
        </p>
      ) : null}
      <SourcePicker onOpened={onOpened} expected={parsed && parsed.kind !== 'url' ? `the ${parsed.kind} "${parsed.name}"` : undefined} />
    </div>
  )
}
