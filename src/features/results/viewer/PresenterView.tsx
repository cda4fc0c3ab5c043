import type { Forest } from '../../../core/tags'
import { plainKind, stepNumber, type Replay } from '../../../core/replay'
import type { StepAnnotation } from '../../../core/finding'
import { ForestDiagram } from './ForestDiagram'
import { ItemDetail } from './ItemViews'
import { MARK_SHORT, surfaceName } from './itemText'

interface Props {
  readonly replay: Replay
  readonly row: number
  readonly forest: Forest | null
  readonly annotation: StepAnnotation | undefined
  readonly title: string
  readonly runNumber: number
  readonly hint: string | null
  readonly onStep: (row: number) => void
  readonly onExit: () => void
  readonly onToggleBookmark: () => void
  /** The run's success was the attacker's own echo; these full-trajectory items are the injections that held it. */
  readonly echo?: { readonly counted: boolean; readonly items: ReadonlySet<number> } | null
}

/**
 * One step at a time, in large type, with the forest beside it lighting up
 * the tags this step involves (its domain, and the granted tag that covers
 * it), and the speaker's note for the step.
 */
export function PresenterView({
  replay,
  row,
  forest,
  annotation,
  title,
  runNumber,
  hint,
  onStep,
  onExit,
  onToggleBookmark,
  echo = null,
}: Props) {
  const item = replay.fullItem(row) ?? replay.attackerItem(row)!
  const seen = replay.attackerItem(row) !== null
  const why = replay.explain(row)
  const mark = replay.mark(row)
  const index = replay.itemOfRow(row)
  const lineage = why.domain ? replay.coverage.lineage(why.domain) : []
  const coverBy = why.tags.find((t) => t !== why.domain)
  const path = coverBy && lineage.includes(coverBy) ? lineage.slice(0, lineage.indexOf(coverBy) + 1) : []
  return (
    <div className="presenter">
      <header className="presenter__bar">
        <span className="presenter__title">
          {title} · run {runNumber}
          {echo && (
            <>
              {' '}
              · <span className="verdict verdict--echo">echoed{echo.counted ? ', counted' : ', not counted'}</span>
            </>
          )}
        </span>
        <span className="presenter__pos" role="status">
          Step {stepNumber(index) ?? '(attacker only)'} of {replay.items.length}
        </span>
        <button type="button" onClick={() => onStep(Math.max(0, row - 1))} disabled={row === 0}>
          ← Previous
        </button>
        <button type="button" onClick={() => onStep(Math.min(replay.rows - 1, row + 1))} disabled={row === replay.rows - 1}>
          Next →
        </button>
        <button type="button" aria-pressed={annotation?.bookmarked ?? false} onClick={onToggleBookmark}>
          {annotation?.bookmarked ? '★ Bookmarked' : '☆ Bookmark'}
        </button>
        <button type="button" onClick={onExit}>
          Exit (Esc)
        </button>
      </header>
      <div className="presenter__body">
        <main className="presenter__step">
          <p className="presenter__kind">
            {/* Plain words for people; the event's class name for engineers, on hover. */}
            <span className={`mark mark--${mark}`}>{MARK_SHORT[mark]}</span>
            {echo?.items.has(index) && (
              <>
                {' '}
                <span className="mark mark--echo" title="the check's evidence is in this injection">
                  echo
                </span>
              </>
            )}{' '}
            <span title={item.type} data-testid="presenter-kind">
              {plainKind(item)}
            </span>
            {surfaceName(item) && (
              <>
                {' '}
                on <strong>{surfaceName(item)}</strong>
              </>
            )}{' '}
            · domain <code>{why.domain ?? 'none'}</code>
          </p>
          <p
            className={
              seen
                ? 'presenter__verdict verdict--seen'
                : replay.learned(row)
                  ? 'presenter__verdict verdict--learned'
                  : 'presenter__verdict verdict--hidden'
            }
            data-testid="presenter-verdict"
          >
            {why.words.presenterLine}
          </p>
          <ItemDetail item={item} fileStem={`step${stepNumber(index)}`} plain />
          <ul className="presenter__why">
            {why.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
          {hint && <p className="presenter__hint">{hint}</p>}
        </main>
        <aside className="presenter__side">
          <ForestDiagram
            forest={forest}
            scope={replay.coverage.grant.scope}
            readOnly={replay.coverage.grant.readOnly}
            highlight={why.tags}
            path={path}
          />
          <section className="presenter__notes" aria-label="Speaker notes">
            <h3>Speaker notes</h3>
            {annotation?.note ? <p>{annotation.note}</p> : <p className="results-note">No note for this step.</p>}
          </section>
        </aside>
      </div>
    </div>
  )
}
