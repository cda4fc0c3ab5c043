import { plainKind } from '../../../core/replay'
import { learnedWords, type ItemMark, type Learned, type PersistedItemLike } from '../../../core/replay'
import { itemFields } from '../../../core/finding'
import { oneLine } from '../common/valueText'
import { ValueView } from '../common/ValueView'
import { kindLabel, MARK_SHORT, previewValue, surfaceName } from './itemText'

interface CellProps {
  readonly item: PersistedItemLike
  readonly mark: ItemMark
  readonly domain: string | null
  /** This injection holds what the check matched in an echoed run. */
  readonly echo?: boolean
}

/** One side of a table row: kind, mark, domain, surface and a one-line preview (text only). */
export function ItemCell({ item, mark, domain, echo = false }: CellProps) {
  const surface = surfaceName(item)
  return (
    <div className={`cell cell--${mark}`}>
      <div className="cell__head">
        <span className={`mark mark--${mark}`}>{MARK_SHORT[mark]}</span>
        {echo && (
          <span className="mark mark--echo" data-testid="echo-mark" title={MARK_SHORT.echo}>
            echo
          </span>
        )}
        <span className="cell__kind">{kindLabel(item)}</span>
        {surface && <span className="cell__surface">{surface}</span>}
        <span className="domain-chip" title="security domain">
          {domain ?? 'no domain'}
        </span>
      </div>
      <div className="cell__preview">{oneLine(previewValue(item))}</div>
    </div>
  )
}

/**
 * The attacker's side of a row it could not see; or, when the item's text reached it through the evaluation's
 * feedback at the run's end, where it came from.
 */
export function GapCell({ learned = null }: { learned?: Learned | null }) {
  if (learned !== null) {
    return (
      <div
        className="cell cell--gap cell--learned"
        data-gap="true"
        data-learned="true"
        aria-label={`hidden during the run, seen ${learnedWords(learned)}`}
      >
        <span className="gap__text">hidden during the run · seen {learnedWords(learned)}</span>
      </div>
    )
  }
  return (
    <div className="cell cell--gap" data-gap="true" aria-label="hidden from the attacker">
      <span className="gap__text">hidden from the attacker</span>
    </div>
  )
}

interface DetailProps {
  readonly item: PersistedItemLike
  readonly fileStem: string
}

/** Every field of one item, each long value behind an expander. */
/** `plain`: the kind in plain words, the event's class name on hover (the presenter, for an audience). */
export function ItemDetail({ item, fileStem, plain = false }: DetailProps & { plain?: boolean }) {
  const rec = item as unknown as Record<string, unknown>
  return (
    <div className="item-detail">
      <p className="item-detail__type">
        {plain ? <span title={item.type}>{plainKind(item)}</span> : <code>{item.type}</code>}
        {typeof rec.timestamp === 'string' && <span> · {rec.timestamp}</span>}
      </p>
      {/* Keyed by step too: a new step starts its trees folded by their own sizes, not as the last step's were left. */}
      {itemFields(item).map((f) => (
        <ValueView key={`${fileStem}:${f.label}`} label={f.label} value={f.value} fileStem={fileStem} />
      ))}
    </div>
  )
}
