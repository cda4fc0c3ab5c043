import { inForestOrder } from '../../../core/model'
import type { Forest } from '../../../core/tags'

/**
 * A combination of tag names as the results pages show it: in forest order
 * when the forest is known, wrapping when long (the full list is also the
 * hover title), and the word "none" for an empty set rather than an empty pill.
 */
export function TagNames({ names, forest, label }: { names: readonly string[]; forest?: Forest | null; label?: string | null }) {
  if (label)
    return (
      <code className="tag-names" title={label}>
        {label}
      </code>
    )
  if (names.length === 0) return <span className="tag-names tag-names--none">none</span>
  const text = inForestOrder(names, forest).join(', ')
  return (
    <code className="tag-names" title={text}>
      {text}
    </code>
  )
}
