import { useQuery } from '@tanstack/react-query'
import { useDeferredValue, useMemo, useState } from 'react'
import { sweepRecordText, SWEEP_FILE, type SweepRecord } from '../../../core/sweep'
import { downloadExperimentsZip } from '../../../lib/downloadZip'
import { resultsStorage, viewerHref } from '../../../lib/browserResults'
import { ReportButton } from '../../../components/ReportButton'
import { useLiveStore } from '../live/liveStore'
import { SweepAnalysis } from '../../../components/sweep/SweepAnalysis'
import { rowsFromManifests } from '../../../core/sweep'
import { frontierForSweep, useFrontier } from './frontierRunner'
import { rowsFromLive, sweepManifestsQuery } from './sweepRows'

function DownloadButton({ record }: { record: SweepRecord }) {
  const [busy, setBusy] = useState<string | null>(null)
  return (
    <button
      type="button"
      className="rc-btn"
      disabled={busy !== null}
      onClick={async () => {
        setBusy('Zipping…')
        try {
          await downloadExperimentsZip(
            record.models.map((m) => m.dir),
            record.id,
            { [SWEEP_FILE]: sweepRecordText(record) },
          )
          setBusy(null)
        } catch (e) {
          setBusy(`Could not zip: ${(e as Error).message}`)
        }
      }}
    >
      {busy ?? 'Download sweep (.zip)'}
    </button>
  )
}

// The viewer lives outside the run console's nested router: `~` makes the link absolute.
const openInViewer = (dir: string) => `~${viewerHref(dir)}`

/** A sweep's results: live when this page ran it, else read back from the experiments' manifests. */
export function SweepResults({ record }: { record: SweepRecord }) {
  const session = useLiveStore((s) => (s.session?.sweepId === record.id ? s.session : null))
  // This page ran it: the live lanes are the truth (also once it ended). After a reload: the manifests.
  const stored = useQuery({ ...sweepManifestsQuery(record), enabled: session === null })
  const rows = useMemo(
    () => (session ? rowsFromLive(record, session) : stored.data ? rowsFromManifests(record, stored.data) : null),
    [record, session, stored.data],
  )
  // A busy sweep changes every frame; the painting and the pairwise check may lag a frame or two behind.
  const deferred = useDeferredValue(rows)
  const search = useFrontier()
  const frontier = useMemo(() => frontierForSweep(search, record), [search, record])
  if (stored.error) return <p className="rc-error">Could not read the sweep’s results: {stored.error.message}</p>
  if (deferred === null)
    return (
      <p className="rc-muted" role="status">
        Reading the sweep’s results…
      </p>
    )
  return (
    <SweepAnalysis
      record={record}
      rows={deferred}
      openHref={openInViewer}
      frontier={frontier}
      actions={
        <>
          <DownloadButton record={record} />{' '}
          <ReportButton
            className="rc-btn"
            storage={resultsStorage()}
            sourceLabel="this browser"
            dirs={record.models.map((m) => m.dir)}
            kind="sweep"
            fileName={`sweep-${record.title}`}
            title={record.title}
            frontier={frontier}
          />
        </>
      }
    />
  )
}
