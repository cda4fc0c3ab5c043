import { Link } from 'wouter'
import { textDelta, type PersistedItemLike } from '../../../core/replay'
import { oneLine } from '../common/valueText'
import { kindLabel, previewValue, surfaceName } from '../viewer/itemText'

interface Props {
  readonly item: PersistedItemLike | null
  readonly index: number
  /** The item it was paired with, when their payloads differ: the difference is highlighted. */
  readonly other: PersistedItemLike | null
  readonly href: (index: number) => string
}

/** One side of a diff row; in a changed pair, the differing middle of the preview is marked. */
export function DiffCell({ item, index, other, href }: Props) {
  if (!item) return <div className="diff__cell diff__cell--empty" aria-label="not in this run" />
  const text = oneLine(previewValue(item), 400)
  const delta = other ? textDelta(text, oneLine(previewValue(other), 400)) : null
  return (
    <div className="diff__cell">
      <div className="cell__head">
        <Link href={href(index)} className="diff__index">
          #{index}
        </Link>
        <span className="cell__kind">{kindLabel(item)}</span>
        {surfaceName(item) && <span className="cell__surface">{surfaceName(item)}</span>}
      </div>
      <div className="cell__preview">
        {delta ? (
          <>
            {delta.prefix}
            <mark className="diff__changed">{delta.a || '∅'}</mark>
            {delta.suffix}
          </>
        ) : (
          text
        )}
      </div>
    </div>
  )
}
