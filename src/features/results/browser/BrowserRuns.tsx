/**
 * What the Results tab adds when it lists this browser's runs: the runs live
 * in IndexedDB and nowhere else, so they are the ones that need a way out (a
 * zip of a superred tree, one experiment, a selection, all, or a whole sweep
 * with its record) and a way to the sweeps the run console ran over them.
 * A folder, a zip or a served tree is already files on disk: no zip there.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { sweepRecordText, SWEEP_FILE } from '../../../core/sweep'
import { plural } from '../../../lib/plural'
import { resultsKeys } from '../../../queries/resultsKeys'
import { browserFrontiersQuery, browserSweepsQuery } from '../queries/sweep'
import type { OpenSource } from '../sourcesStore'
import { useTreeZip } from './useTreeZip'
import { useSiteZip } from './useSiteZip'

/** The run console's sweeps, each with the way to its painted forest and grid, and its zip (with sweep.json). */
export function BrowserSweeps({ source, src }: { source: OpenSource; src: string }) {
  const { data } = useQuery(browserSweepsQuery(src))
  const { busy, zip } = useTreeZip(source.storage)
  const siteZip = useSiteZip(source.storage)
  if (!data || data.length === 0) return null
  return (
    <section aria-label="Sweeps" className="browser-sweeps">
      <div className="experiments-head">
        <h2>
          Sweeps in this browser <span className="results-muted">({data.length})</span>
        </h2>
        {busy && (
          <span className="results-muted" role="status">
            {busy}
          </span>
        )}
        {siteZip.busy && (
          <span className="results-muted" role="status" data-testid="sweep-site-status">
            {siteZip.busy}
          </span>
        )}
      </div>
      <ul>
        {data.map((s) => (
          <li key={s.id} data-testid="sweep-record">
            {/* The sweep view is the run console's: `~` leaves the Results tab's nested router. */}
            <Link href={`~/run/sweep/${encodeURIComponent(s.id)}`}>{s.title}</Link>{' '}
            <span className="results-muted">
              {new Date(s.createdAt).toLocaleString()} · {plural(s.models.length, 'threat model')}
            </span>{' '}
            <button
              type="button"
              className="button--small"
              onClick={() =>
                void zip(
                  s.models.map((m) => m.dir),
                  s.id,
                  { [SWEEP_FILE]: sweepRecordText(s) },
                )
              }
            >
              Download sweep (.zip)
            </button>{' '}
            <button
              type="button"
              className="button--small"
              onClick={() =>
                void siteZip.site(
                  s.title,
                  s.models.map((m) => m.dir),
                  { [SWEEP_FILE]: sweepRecordText(s) },
                )
              }
            >
              Download sweep as a site
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The Run page's frontier searches kept in this browser, each opening its painted answer. */
export function BrowserFrontiers({ src }: { src: string }) {
  const { data } = useQuery(browserFrontiersQuery(src))
  if (!data || data.length === 0) return null
  return (
    <section aria-label="Frontier searches" className="browser-sweeps">
      <div className="experiments-head">
        <h2>
          Frontier searches in this browser <span className="results-muted">({data.length})</span>
        </h2>
      </div>
      <ul>
        {data.map((f) => (
          <li key={f.id} data-testid="frontier-record">
            <Link href={`/frontier?src=${encodeURIComponent(src)}&id=${encodeURIComponent(f.id)}`}>{f.title}</Link>{' '}
            <span className="results-muted">
              {new Date(f.createdAt).toLocaleString()} · {plural(f.file.evaluated, 'threat model')} run of{' '}
              {f.file.threat_models_total.toLocaleString('en-US')}
              {' · '}
              {plural(f.file.claim.minimal_wins.length, 'minimal win')},{' '}
              {plural(f.file.claim.maximal_losses.length, 'maximal loss', 'maximal losses')}
              {f.file.complete ? '' : ' · stopped before complete'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Another tab of this browser may have run something since the list was read. */
export function RefreshButton({ src }: { src: string }) {
  const client = useQueryClient()
  return (
    <button type="button" onClick={() => void client.invalidateQueries({ queryKey: resultsKeys.source(src) })}>
      Refresh
    </button>
  )
}
