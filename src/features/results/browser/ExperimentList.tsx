import { useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Link } from 'wouter'
import { ErrorBox } from '../common/ErrorBox'
import { experimentsQuery } from '../queries/experiments'
import { frontierFileQuery, sweepRecordQuery } from '../queries/sweep'
import { currentSiteSource, isBrowserRuns, isLiveSource, type OpenSource } from '../sourcesStore'
import { experimentHref } from '../paths'
import { BrowserFrontiers, BrowserSweeps, RefreshButton } from './BrowserRuns'
import { costText, viewExperiments, whenText } from './experimentRows'
import { costWords } from '../../../core/results'
import { shardNote } from './sweepNote'
import { useTreeZip } from './useTreeZip'
import { useSiteZip } from './useSiteZip'

/**
 * The experiments of one source, named by what they are, newest first,
 * filterable. For this browser's runs, also their sweeps and zip downloads:
 * the one list of runs, whether a run came from this page or from a folder.
 */
export function ExperimentList({ source, src }: { source: OpenSource; src: string }) {
  const { data, error, isPending } = useQuery(experimentsQuery(source, src))
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const { busy, zip } = useTreeZip(source.storage)
  const siteZip = useSiteZip(source.storage)
  const rows = useMemo(() => (data ? viewExperiments(data, query) : []), [data, query])
  const scrollRef = useRef<HTMLDivElement>(null)
  // A sweep leaves hundreds of experiments: only the rows in view are in the DOM, measured since names wrap.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    getItemKey: (i) => rows[i].dir,
  })
  if (error) return <ErrorBox title={`Could not list the experiments of ${source.label}`} error={error} />
  if (isPending) return <p role="status">Reading {source.label}…</p>
  const live = isLiveSource(source)
  const own = isBrowserRuns(source)
  if (data.length === 0) {
    if (own)
      return (
        <p className="results-note" data-testid="no-experiments">
          No runs in this browser yet: set up a run on the <Link href="~/run">Run</Link> tab.
        </p>
      )
    return (
      <p className="results-note" data-testid="no-experiments">
        No experiment found in {source.label}
        {live ? ' yet: this page shows them as they are written' : ''}: expected experiments.json, or folders with a manifest.json.
        {source.kind === 'url' && ' A server cannot list its folders: give the address of the results root, where experiments.json is.'}
      </p>
    )
  }
  // A selection survives a filter but never names a folder the list no longer has.
  const chosen = data.map((r) => r.dir).filter((d) => selected.has(d))
  const items = virtual.getVirtualItems()
  const top = items.length > 0 ? items[0].start : 0
  const bottom = items.length > 0 ? virtual.getTotalSize() - items[items.length - 1].end : 0
  const toggle = (dir: string) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(dir)) next.delete(dir)
      else next.add(dir)
      return next
    })
  return (
    <>
      {own && <BrowserSweeps source={source} src={src} />}
      {own && <BrowserFrontiers src={src} />}
      <section aria-label="Experiments">
        <SweepBanner source={source} src={src} />
        <FrontierBanner source={source} src={src} />
        <div className="experiments-head">
          <h2>
            Experiments in {source.label} <span className="results-muted">({data.length})</span>
          </h2>
          {live && (
            <span className="live-note" role="status">
              live: refreshes as the folder is written
            </span>
          )}
          {!currentSiteSource() && (
            <button
              type="button"
              onClick={() => void siteZip.site(source.label, own ? data.map((r) => r.dir) : undefined)}
              title="A zip of a static site: the viewer and these results, secrets masked by the built-in rules. Unzip it and open index.html from disk, or put the folder on any static host (GitHub Pages, an S3 bucket); no server is needed."
            >
              Download as a site (.zip)
            </button>
          )}
          {own && (
            <>
              {busy && (
                <span className="results-muted" role="status">
                  {busy}
                </span>
              )}
              <RefreshButton src={src} />
              <button type="button" disabled={chosen.length === 0} onClick={() => void zip(chosen, 'redscope-results')}>
                Download selected (.zip)
              </button>
              <button
                type="button"
                onClick={() =>
                  void zip(
                    data.map((r) => r.dir),
                    'redscope-results',
                  )
                }
              >
                Download all (.zip)
              </button>
            </>
          )}
          <input
            type="search"
            placeholder="Filter: threat model, target, claim, attacker…"
            aria-label="Filter experiments"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        {siteZip.busy && (
          <p className="results-muted results-small" role="status" data-testid="site-status">
            {siteZip.busy}
          </p>
        )}
        {own && (
          <p className="results-muted results-small">
            Runs from the Run tab are kept in this browser (IndexedDB) as superred results trees; a zip is one such tree, which{' '}
            <code>redscope results</code> and <code>redscope view</code> read.
          </p>
        )}
        <div className="experiments-scroll" ref={scrollRef}>
          <table className="results-table experiments-table">
            <thead>
              <tr>
                {own && (
                  <th>
                    <span className="results-sr-only">Select</span>
                  </th>
                )}
                <th>Threat model</th>
                <th>Target</th>
                <th>Claim</th>
                <th>Attacker</th>
                <th>When</th>
                <th>Outcome</th>
                <th>Cost</th>
                <th>Folder</th>
                {own && (
                  <th>
                    <span className="results-sr-only">Download</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              <Spacer height={top} />
              {items.map((v) => {
                const r = rows[v.index]
                return (
                  <tr
                    key={r.dir}
                    ref={virtual.measureElement}
                    data-index={v.index}
                    data-testid="experiment-row"
                    data-dir={r.dir}
                    className={r.inProgress ? 'experiment-row--live' : undefined}
                  >
                    {own && (
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Select ${r.dir}`}
                          checked={selected.has(r.dir)}
                          onChange={() => toggle(r.dir)}
                        />
                      </td>
                    )}
                    <td className="experiments-table__model">
                      <Link href={experimentHref(src, r.dir)} title={r.named ? 'saved threat model' : 'granted tags'}>
                        {r.threatModel}
                      </Link>
                      {r.named && (
                        <div className="results-muted results-small" data-testid="experiment-grants">
                          {r.grants}
                        </div>
                      )}
                    </td>
                    <td>{r.target}</td>
                    <td>{r.claim}</td>
                    <td>{r.attacker}</td>
                    <td title={r.when ?? undefined}>{whenText(r.when)}</td>
                    <td className={`experiments-table__outcome${r.inProgress ? ' status status--live' : ''}`}>{r.outcome}</td>
                    <td title={r.unpriced ? costWords(r.cost ?? 0, r.unpriced, r.calls === null ? {} : { calls: r.calls }) : undefined}>
                      {costText(r.cost, r.unpriced, r.calls)}
                    </td>
                    <td className="results-muted results-small experiments-table__dir">
                      <Link href={experimentHref(src, r.dir)}>{r.dir}</Link>
                    </td>
                    {own && (
                      <td>
                        <button
                          type="button"
                          className="button--small"
                          aria-label={`Download ${r.dir} as a zip`}
                          onClick={() => void zip([r.dir], r.dir)}
                        >
                          .zip
                        </button>
                      </td>
                    )}
                  </tr>
                )
              })}
              <Spacer height={bottom} />
            </tbody>
          </table>
        </div>
        {rows.length === 0 && <p className="results-note">No experiment matches “{query}”.</p>}
      </section>
    </>
  )
}

const ROW = 37

/** Stands in for the rows above or below the view, so the table scrolls as if they were there. */
function Spacer({ height }: { height: number }) {
  return height > 0 ? <tr aria-hidden="true" className="experiments-spacer" style={{ height }} /> : null
}

/** A tree that holds a sweep (its sweep.json) says so, with the way to the painted forest and grid. */
function SweepBanner({ source, src }: { source: OpenSource; src: string }) {
  const { data, error } = useQuery(sweepRecordQuery(source, src))
  if (error)
    return <ErrorBox title={`${source.label} has a sweep.json that cannot be read; its experiments are listed below`} error={error} />
  if (!data) return null
  const note = shardNote(data)
  return (
    <p className="results-note" data-testid="sweep-banner">
      This folder holds a sweep: <strong>{data.title}</strong>
      {note ? ` (${note.charAt(0).toLowerCase()}${note.slice(1)})` : ''}.{' '}
      <Link href={`/sweep?src=${encodeURIComponent(src)}`}>Open the sweep</Link>
    </p>
  )
}

/** A tree that holds a frontier search's answer (its frontier.json) says so, with the way to it painted. */
function FrontierBanner({ source, src }: { source: OpenSource; src: string }) {
  const { data, error } = useQuery(frontierFileQuery(source, src))
  if (error)
    return <ErrorBox title={`${source.label} has a frontier.json that cannot be read; its experiments are listed below`} error={error} />
  if (!data) return null
  return (
    <p className="results-note" data-testid="frontier-banner">
      This folder holds a frontier search: {data.claim.minimal_wins.length} minimal win{data.claim.minimal_wins.length === 1 ? '' : 's'} and{' '}
      {data.claim.maximal_losses.length} maximal loss{data.claim.maximal_losses.length === 1 ? '' : 'es'} of the claim, {data.evaluated} of{' '}
      {data.threat_models_total} threat models run
      {data.complete ? '' : ' (stopped before complete)'}. <Link href={`/frontier?src=${encodeURIComponent(src)}`}>Open the frontier</Link>
    </p>
  )
}
