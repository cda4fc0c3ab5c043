import { Handle, type NodeProps } from '@xyflow/react'
import { memo, useLayoutEffect, useRef } from 'react'
import { accessIn } from '../../core/model'
import { useDesigner } from '../../stores/designerStore'
import { coverageFor, notesFor, tagIndex } from '../../stores/selectors'
import { cycleAccess } from './designerActions'
import { HANDLE_SIDES, type TagFlowNode } from './forestNodes'
import { descendantsOf } from './layoutCache'
import { canvasViewStore, useCanvasView } from '../../stores/canvasViewStore'
import { plural } from '../../lib/plural'
import { ACCESS_LABEL, COVERAGE_LABEL } from './labels'
import { TagNameEditor } from './TagNameEditor'
import { TagNotes } from './TagNotes'

/**
 * One capability tag. It reads its own state from the store with one narrow
 * selector per value, so a click re-renders only the tags it changes. Names,
 * descriptions and notes are user data: rendered as text only.
 */
function TagNodeView({ id }: NodeProps<TagFlowNode>) {
  const tagId = id as TagFlowNode['data']['tagId']
  const tag = useDesigner((s) => tagIndex(s.history.present.tags).get(tagId))
  const access = useDesigner((s) => accessIn(s.history.present, tagId))
  const effective = useDesigner((s) => coverageFor(s.history.present, tagId)?.effective ?? 'none')
  const via = useDesigner((s) => {
    const c = coverageFor(s.history.present, tagId)
    return c?.via && c.via !== tagId ? (tagIndex(s.history.present.tags).get(c.via)?.name ?? null) : null
  })
  const notes = useDesigner((s) => notesFor(s.history.present, tagId))
  const editing = useDesigner((s) => s.editing === tagId)
  const mode = useDesigner((s) => s.mode)
  const under = useDesigner((s) => descendantsOf(s.history.present.tags).get(tagId) ?? 0)
  const sides = HANDLE_SIDES[useCanvasView((s) => s.direction)]
  const folded = useCanvasView((s) => s.folded.has(tagId))
  const compact = useCanvasView((s) => s.density === 'compact')
  const root = useRef<HTMLDivElement>(null)
  // The grant lives on React Flow's wrapper (what tests, styles and the bench look for), set from here
  // before paint: the node objects handed to React Flow then stay the same on a scope click.
  useLayoutEffect(() => {
    const wrapper = root.current?.parentElement
    if (!wrapper) return
    wrapper.dataset.access = access
    wrapper.dataset.coverage = effective
  }, [access, effective, tag])
  if (!tag) return null
  // A covered tag shows where its coverage comes from instead of "not granted"; a click still cycles it.
  const showPill = access !== 'none' || (mode === 'scope' && via === null)
  const viaText = via ? `${COVERAGE_LABEL[effective]} via ${via}` : ''
  const pill =
    showPill || compact ? (
      <button
        type="button"
        className={`tag-node__access tag-node__access--${access} nodrag`}
        title="Change what the attacker may do here: not granted → read & write → read only"
        aria-label={`${tag.name}: ${ACCESS_LABEL[access]}. Change access`}
        onClick={(e) => {
          e.stopPropagation()
          cycleAccess([tagId])
        }}
      >
        {compact ? null : ACCESS_LABEL[access]}
      </button>
    ) : null
  // Compact: the name and a grant icon on one line; description, coverage and notes go to the tooltip (plain
  // text, the browser draws it) and the inspector, so a wide forest fits at a zoom where names can be read.
  const tooltip = compact
    ? [tag.name, tag.description, viaText, ...notes.map((n) => `${n.severity}: ${n.text}`)].filter(Boolean).join('\n')
    : undefined
  return (
    <div
      ref={root}
      title={tooltip}
      className={`tag-node tag-node--${effective} tag-node--${access}${via ? ' tag-node--covered' : ''}${folded ? ' tag-node--folded' : ''}${compact ? ' tag-node--compact' : ''}`}
    >
      <Handle type="target" position={sides.target} isConnectable={false} />
      {editing ? (
        <TagNameEditor id={tagId} name={tag.name} />
      ) : (
        <span className="tag-node__name" title={compact ? undefined : tag.name}>
          {tag.name}
        </span>
      )}
      {compact ? (
        pill
      ) : (
        <>
          <span className="tag-node__description">{tag.description || (mode === 'design' ? 'no description yet' : '')}</span>
          <div className="tag-node__foot">
            <span className="tag-node__via">{viaText}</span>
            {pill}
          </div>
          {notes.length > 0 ? <TagNotes notes={notes} /> : null}
        </>
      )}
      {under > 0 ? (
        <button
          type="button"
          className={`tag-node__fold tag-node__fold--${sides.source} nodrag`}
          aria-expanded={!folded}
          aria-label={`${folded ? 'Unfold' : 'Fold'} the ${plural(under, 'tag')} under ${tag.name}`}
          title={folded ? `Show the ${plural(under, 'tag')} under this one` : `Fold the ${plural(under, 'tag')} under this one into it`}
          onClick={(e) => {
            e.stopPropagation()
            canvasViewStore.getState().toggleFold(tagId)
          }}
        >
          {folded ? `+${under}` : '−'}
        </button>
      ) : null}
      <Handle type="source" position={sides.source} isConnectable={false} />
    </div>
  )
}

export const TagNode = memo(TagNodeView)
