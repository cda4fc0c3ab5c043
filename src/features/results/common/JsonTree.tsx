import { useMemo, useState, type ReactNode } from 'react'
import {
  childPath,
  countNodes,
  ENTRY_PAGE,
  entriesOf,
  foldedSummary,
  initiallyOpenPaths,
  isContainer,
  jsonCopyText,
  jsonInString,
  scalarText,
  sizeOf,
  type JsonContainer,
} from '../../../core/json'
import { RENDER_MAX_CHARS, visibleText } from './valueText'

/** How nodes start: by size and depth (`auto`), all unfolded (bounded by UNFOLD_ALL_MAX), or all folded. */
export type FoldMode = 'auto' | 'open' | 'closed'

/** "Unfold all" opens a subtree only up to this many nodes: a huge snapshot unfolds part by part instead of freezing the page. */
export const UNFOLD_ALL_MAX = 2_000
/** Characters of a string leaf shown before its "more" button. */
export const STRING_PREVIEW = 300

interface TreeProps {
  readonly root: JsonContainer
  readonly fold: FoldMode
  /** Label for the root's copy button and list. */
  readonly label: string
}

/**
 * A JSON value as a folding tree. Every key and value is a React text node
 * (never HTML); children render only while their parent is open, and at most
 * ENTRY_PAGE entries at a time, so the DOM holds what is on screen, not the
 * whole payload.
 */
export function JsonTree({ root, fold, label }: TreeProps) {
  const opens = useMemo(() => ({ paths: initiallyOpenPaths(root), base: '' }), [root])
  return (
    <div className="json" data-testid="json-tree">
      <Entries value={root} opens={opens} fold={fold} label={label} />
    </div>
  )
}

/**
 * Which nodes start open: the paths chosen for the subtree a node belongs to, and the node's path in it. The
 * root's are chosen once for the whole value; a node the reader unfolds chooses afresh for its own subtree, so
 * unfolding a big store opens its small parts the way a small value opens.
 */
interface Opens {
  readonly paths: ReadonlySet<string>
  readonly base: string
}

function Entries({ value, opens, fold, label }: { value: JsonContainer; opens: Opens; fold: FoldMode; label: string }) {
  const [shown, setShown] = useState(ENTRY_PAGE)
  const total = sizeOf(value)
  const entries = useMemo(() => entriesOf(value, 0, shown), [value, shown])
  const isArray = Array.isArray(value)
  return (
    <ul className="json__entries" aria-label={label}>
      {entries.map(([key, child]) => (
        <Entry
          key={key}
          name={key}
          index={isArray}
          value={child}
          opens={{ paths: opens.paths, base: childPath(opens.base, key) }}
          fold={fold}
        />
      ))}
      {total === 0 && <li className="json__empty">{isArray ? '[ ]' : '{ }'}</li>}
      {shown < total && (
        <li>
          <button type="button" className="linkish" onClick={() => setShown(shown + ENTRY_PAGE)}>
            Show {Math.min(ENTRY_PAGE, total - shown).toLocaleString('en-US')} more of {(total - shown).toLocaleString('en-US')}
          </button>
        </li>
      )}
    </ul>
  )
}

function initiallyOpen(value: JsonContainer, opens: Opens, fold: FoldMode): boolean {
  if (fold === 'closed') return false
  if (fold === 'open' && countNodes(value, UNFOLD_ALL_MAX) <= UNFOLD_ALL_MAX) return true
  return opens.paths.has(opens.base)
}

interface EntryProps {
  readonly name: string
  /** An array index: shown dimmed, without quotes. */
  readonly index: boolean
  readonly value: unknown
  readonly opens: Opens
  readonly fold: FoldMode
}

function Entry({ name, index, value, opens, fold }: EntryProps) {
  // A string that holds an object or array (a tool call's arguments, a JSON answer) unfolds like one.
  const inner = useMemo(() => (typeof value === 'string' ? jsonInString(value) : undefined), [value])
  const node = inner ?? value
  const key = <span className={index ? 'json__index' : 'json__key'}>{visibleText(name)}</span>
  if (isContainer(node))
    return <ContainerEntry name={name} keyNode={key} value={node} fromString={inner !== undefined} opens={opens} fold={fold} />
  return (
    <li className="json__leaf">
      {key}
      <span className="json__colon">: </span>
      {typeof node === 'string' ? (
        <StringValue text={node} />
      ) : (
        <span className={`json__${node === null ? 'null' : typeof node}`}>{scalarText(node)}</span>
      )}
    </li>
  )
}

function ContainerEntry({
  name,
  keyNode,
  value,
  fromString,
  opens,
  fold,
}: {
  name: string
  keyNode: ReactNode
  value: JsonContainer
  fromString: boolean
  opens: Opens
  fold: FoldMode
}) {
  const [open, setOpen] = useState(() => initiallyOpen(value, opens, fold))
  // Opened by the reader rather than at the start: its subtree chooses its own open nodes.
  const [own, setOwn] = useState<Opens | null>(null)
  const toggle = () => {
    if (!open && fold === 'auto' && !opens.paths.has(opens.base) && own === null) setOwn({ paths: initiallyOpenPaths(value), base: '' })
    setOpen(!open)
  }
  const [copied, setCopied] = useState(false)
  const copy = () => {
    navigator.clipboard.writeText(jsonCopyText(value)).then(
      () => setCopied(true),
      () => setCopied(false),
    )
  }
  return (
    <li className="json__node" data-open={open}>
      <button type="button" className="json__toggle" aria-expanded={open} onClick={toggle}>
        <span className="json__caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        {keyNode}
      </button>
      {fromString && (
        <span className="json__badge" title="This value is a string that holds JSON; shown unfolded as JSON">
          JSON text
        </span>
      )}
      <span className="json__summary">{foldedSummary(value)}</span>
      <button type="button" className="json__copy linkish" aria-label={`Copy ${name} as JSON`} onClick={copy}>
        {copied ? 'copied' : 'copy'}
      </button>
      {open && <Entries value={value} opens={own ?? opens} fold={fold} label={name} />}
    </li>
  )
}

/** A string leaf as its text, wrapped; a long one shows its start and a button for the rest (at most RENDER_MAX_CHARS). */
function StringValue({ text }: { text: string }) {
  const [all, setAll] = useState(false)
  const long = text.length > STRING_PREVIEW
  const shown = !long ? text : all ? text.slice(0, RENDER_MAX_CHARS) : text.slice(0, STRING_PREVIEW)
  return (
    <span className="json__string">
      <span className="json__text">
        {visibleText(shown)}
        {long && !all && '…'}
      </span>
      {long && (
        <button type="button" className="json__more linkish" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'less' : `more (${text.length.toLocaleString('en-US')} chars)`}
        </button>
      )}
    </span>
  )
}
