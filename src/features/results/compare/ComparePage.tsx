/**
 * Two results side by side as BASE and HEAD (`/compare?base=<source>&head=<source>`):
 * any two sources the viewer opens. A side the address names but this page
 * has not opened (a folder or zip after a reload) is asked for again, and the
 * comparison continues where it was; sources opened here stay open whatever
 * the comparison says of them.
 */
import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { servedResultsLabel } from '../../../adapters/storage/servedStorage'
import { Link } from 'wouter'
import { isCompareOf, resultsKeys } from '../../../queries/resultsKeys'
import { compareHref } from '../paths'
import { SourcePicker } from '../sources/SourcePicker'
import { sourceFromServed, useResolvedSource } from '../sources/openSource'
import { parseSourceKey, sourceKey as keyOf, useSourceActions, useSourcesStore, type OpenSource } from '../sourcesStore'
import { useResultsLocation } from '../useResultsLocation'
import { ComparisonView } from './ComparisonView'

type Which = 'BASE' | 'HEAD'

export function ComparePage() {
  const { params, navigate } = useResultsLocation()
  const baseKey = params.get('base')
  const headKey = params.get('head')
  const base = useResolvedSource(baseKey)
  const head = useResolvedSource(headKey)
  const go = (b: string | null, h: string | null) => navigate(compareHref(b, h), { replace: true })
  return (
    <div className="results-page compare-page">
      <nav className="crumbs" aria-label="Breadcrumbs">
        <Link href={baseKey ? `/?src=${encodeURIComponent(baseKey)}` : '/'}>Results</Link> / compare
      </nav>
      <h2>Compare two results</h2>
      <p className="results-note">
        BASE is the earlier result (the baseline), HEAD the one to judge. Threat models are matched by target, claim, attacker and grants,
        tasks by goal, as <code>redscope compare BASE HEAD</code> matches them.
      </p>
      <div className="compare-sides">
        <SideChooser which="BASE" sourceKey={baseKey} source={base} otherKey={headKey} onChoose={(k) => go(k, headKey)} />
        <SideChooser which="HEAD" sourceKey={headKey} source={head} otherKey={baseKey} onChoose={(k) => go(baseKey, k)} />
      </div>
      {(baseKey || headKey) && (
        <p>
          <button type="button" onClick={() => go(headKey, baseKey)}>
            Swap BASE and HEAD
          </button>
        </p>
      )}
      {base && head && baseKey && headKey && <ComparisonView base={base} head={head} baseKey={baseKey} headKey={headKey} />}
    </div>
  )
}

interface ChooserProps {
  readonly which: Which
  readonly sourceKey: string | null
  readonly source: OpenSource | undefined
  readonly otherKey: string | null
  readonly onChoose: (key: string | null) => void
}

/** One side: the source it shows, or the ways to choose one (already open in this page, or opened now). */
function SideChooser({ which, sourceKey, source, otherKey, onChoose }: ChooserProps) {
  const sources = useSourcesStore((s) => s.sources)
  const { add } = useSourceActions()
  const client = useQueryClient()
  // The folder `redscope view` serves is open whether or not the Results tab has shown it yet.
  const served = useQuery({ queryKey: ['results', 'served-label'], queryFn: () => servedResultsLabel(), staleTime: Infinity }).data ?? null
  const open = Object.values(sources).filter((s) => s.kind !== 'site')
  if (served !== null && !open.some((s) => s.key === keyOf('served', served))) open.unshift(sourceFromServed(served))
  const [picked, setPicked] = useState('')
  if (source && sourceKey) {
    return (
      <section className="compare-side" aria-label={which} data-testid={`compare-side-${which.toLowerCase()}`}>
        <h3>{which}</h3>
        <p className="compare-side__source">
          <Link href={`/?src=${encodeURIComponent(sourceKey)}`}>
            {source.kind}: {source.label}
          </Link>
        </p>
        <button type="button" className="button--small" onClick={() => onChoose(null)}>
          Choose another {which}
        </button>
      </section>
    )
  }
  const parsed = sourceKey ? parseSourceKey(sourceKey) : null
  const onOpened = (opened: OpenSource) => {
    add(opened)
    client.removeQueries({ queryKey: resultsKeys.source(opened.key) })
    client.removeQueries({ predicate: (q) => isCompareOf(q.queryKey, opened.key) })
    onChoose(opened.key)
  }
  return (
    <section
      className="compare-side compare-side--choose"
      aria-label={`Choose ${which}`}
      data-testid={`compare-choose-${which.toLowerCase()}`}
    >
      <h3>{which}</h3>
      {sourceKey !== null && parsed === null && (
        <p className="results-error" role="alert">
          This address names an unknown results source for {which}.
        </p>
      )}
      {open.length > 0 && (
        <form
          className="compare-side__open"
          onSubmit={(e) => {
            e.preventDefault()
            if (picked) onChoose(picked)
          }}
        >
          <label>
            Already open:{' '}
            <select aria-label={`${which} from the open results`} value={picked} onChange={(e) => setPicked(e.target.value)}>
              <option value="">choose…</option>
              {open.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.kind}: {s.label}
                  {s.key === otherKey ? ' (the other side)' : ''}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="submit" disabled={picked === ''}>
            Use as {which}
          </button>
        </form>
      )}
      <SourcePicker
        onOpened={onOpened}
        expected={parsed && parsed.kind !== 'url' ? `the ${parsed.kind} "${parsed.name}" as ${which}` : undefined}
      />
    </section>
  )
}
