import { useState } from 'react'
import { buildReport, reportHtml, type ReportOptions } from '../core/report'
import type { Forest } from '../core/tags'
import { downloadText } from '../lib/download'
import { redactingReader, type Storage } from '../core/results'
import { exportMask } from '../lib/heldSecrets'

interface Props {
  /** Where the results are read from, and how the user knows that place (a folder's name, "this browser"). */
  readonly storage: Storage
  readonly sourceLabel: string
  /** The experiment folders the report covers: one, or every experiment of a sweep. */
  readonly dirs: readonly string[]
  readonly kind: 'experiment' | 'sweep'
  readonly title: string
  readonly fileName: string
  /** A forest the user attached, for experiments without domain.json. */
  readonly forest?: Forest | null
  /** A frontier known for these results: the report's forest then shows the frontier's view, as the page does. */
  readonly frontier?: ReportOptions['frontier']
  readonly className?: string
}

/** A file name from folder names and titles: letters, digits, dots, dashes and underscores only. */
function reportFileName(name: string): string {
  return `report-${name}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 170) + '.html'
}

/**
 * Downloads the report of an experiment or a sweep: one HTML file that runs no
 * script and loads nothing, redacted with the finding export's rules, that
 * opens from a file and prints to PDF.
 */
export function ReportButton({ storage, sourceLabel, dirs, kind, title, fileName, forest, frontier, className }: Props) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const make = async () => {
    setBusy(true)
    setError(null)
    try {
      const report = await buildReport(redactingReader(storage, exportMask()), dirs, {
        kind,
        title,
        source: sourceLabel,
        now: new Date(),
        forest,
        frontier,
      })
      downloadText(reportFileName(fileName), reportHtml(report), 'text/html')
    } catch (e) {
      setError(`The report could not be made: ${(e as Error).message}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="report-button">
      <button
        type="button"
        className={className}
        onClick={() => void make()}
        disabled={busy}
        title="One HTML file: the forest painted with the results, each threat model and what it grants, each task's outcome and its best run's key steps, cost and time. Secrets are masked with the finding export's rules. It runs no script, opens from a file and prints to PDF."
      >
        {busy ? 'Making the report…' : `Download the ${kind === 'sweep' ? 'sweep' : 'experiment'} report`}
      </button>
      {error ? (
        <span className="results-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  )
}
