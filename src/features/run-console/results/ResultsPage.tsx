import { useQuery } from '@tanstack/react-query'
import type { ExperimentsIndexRow } from '../../../core/results'
import { sweepRecordText, SWEEP_FILE } from '../../../core/sweep'
import { Link } from 'wouter'
import { downloadExperimentsZip } from '../engine/downloadZip'
import { experimentsQuery, sweepsQuery } from '../queries/results'
import { runQueryClient, runKeys } from '../queries/queryClient'
import { ExperimentList } from './ExperimentList'
import { plural } from '../../../lib/plural'

/** Unfinished first (they are the ones being watched), then the most recently completed. */
function newestFirst(rows: readonly ExperimentsIndexRow[]): ExperimentsIndexRow[] {
  return [...rows].sort((a, b) => (a.completed_at === null ? -1 : 0) - (b.completed_at === null ? -1 : 0) || (b.completed_at ?? '').localeCompare(a.completed_at ?? ''))
}

function Sweeps() {
  const q = useQuery(sweepsQuery())
  if (!q.data || q.data.length === 0) return null
  return (
    <section aria-label="Sweeps" className="rc-card">
      <h2 className="rc-h3">Sweeps</h2>
      <ul className="rc-list">
        {q.data.map((s) => (
          <li key={s.id} className="rc-row rc-row--spread" data-testid="sweep-record">
            <span><Link href={`/sweep/${s.id}`} className="rc-link">{s.title}</Link> <span className="rc-muted">{new Date(s.createdAt).toLocaleString()} · {plural(s.models.length, 'threat model')}</span></span>
            <button type="button" className="rc-btn rc-btn--small" onClick={() => void downloadExperimentsZip(s.models.map((m) => m.dir), s.id, { [SWEEP_FILE]: sweepRecordText(s) })}>Download sweep (.zip)</button>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** This browser's results: every experiment with its summary, the sweeps, downloads as superred trees. */
export function ResultsPage() {
  const q = useQuery(experimentsQuery())
  return (
    <>
      <div className="rc-row rc-row--spread">
        <p className="rc-muted">Runs from this page are saved in this browser (IndexedDB) as superred results trees. Open one in the viewer to step through its trajectories.</p>
        <button type="button" className="rc-btn rc-btn--small" onClick={() => void runQueryClient.invalidateQueries({ queryKey: runKeys.results })}>Refresh</button>
      </div>
      <Sweeps />
      {q.error ? <p className="rc-error">Could not read this browser’s results: {q.error.message}</p> : null}
      {q.isPending ? <p className="rc-muted" role="status">Reading this browser’s results…</p> : null}
      {q.data ? (q.data.length ? <ExperimentList rows={newestFirst(q.data)} /> : <p className="rc-muted">No runs yet: set up a run on the Run tab.</p>) : null}
    </>
  )
}
