/**
 * Keyboard shortcuts as a registry (excalidraw's actions): each has a label
 * for the help sheet, a key test, an optional predicate and a `perform`. The
 * canvas runs the first that matches; the toolbar's help lists them all.
 */
import type { TagId } from '../../core/model'
import { designerStore } from '../../stores/designerStore'
import { addChild, addRoot, addSibling, cycleAccess, deleteTags, liveSelection, moveAmongSiblings, neighbour } from './designerActions'

export interface ShortcutContext {
  fitView: () => void
  zoomIn: () => void
  zoomOut: () => void
  /** Moves keyboard focus to a tag's node on the canvas. */
  focusTag: (id: TagId) => void
  toggleHelp: () => void
}

export interface Shortcut {
  id: string
  /**
   * `canvas`: only while the focus is on the canvas (a tag, the pane) or nowhere, so
   * that Tab, Enter and the arrows keep their usual meaning in the toolbar and panels.
   * `page`: anywhere in the designer except while typing.
   */
  where: 'canvas' | 'page'
  keys: string
  label: string
  test: (e: KeyboardEvent) => boolean
  predicate?: () => boolean
  perform: (ctx: ShortcutContext) => void
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey
const plain = (e: KeyboardEvent) => !e.ctrlKey && !e.metaKey && !e.altKey
const hasSelection = () => liveSelection().length > 0

/** The tags a key acts on: the selection, or the focused tag when it is not part of it (keyboard-only use). */
function targets(): TagId[] {
  const sel = liveSelection()
  const focused =
    document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('.react-flow__node')?.dataset.id : undefined
  if (focused && !sel.includes(focused as TagId) && s().history.present.tags.some((t) => t.id === focused)) return [focused as TagId]
  return sel
}
const one = () => liveSelection().length === 1
const s = () => designerStore.getState()

function go(dir: 'up' | 'down' | 'left' | 'right', ctx: ShortcutContext) {
  const [sel] = liveSelection()
  const tags = s().history.present.tags
  const next = sel === undefined ? tags[0]?.id : neighbour(sel, dir)
  if (next) {
    s().select([next])
    ctx.focusTag(next)
  }
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    id: 'undo',
    where: 'page',
    keys: 'Ctrl+Z',
    label: 'Undo',
    test: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    perform: () => s().undo(),
  },
  {
    id: 'redo',
    where: 'page',
    keys: 'Ctrl+Shift+Z / Ctrl+Y',
    label: 'Redo',
    test: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'),
    perform: () => s().redo(),
  },
  {
    id: 'child',
    where: 'canvas',
    keys: 'Tab',
    label: 'Add a child to the selected tag',
    test: (e) => plain(e) && !e.shiftKey && e.key === 'Tab',
    predicate: one,
    perform: () => void addChild(),
  },
  {
    id: 'sibling',
    where: 'canvas',
    keys: 'Enter',
    label: 'Add a sibling after the selected tag',
    test: (e) => plain(e) && !e.shiftKey && e.key === 'Enter',
    predicate: () => one() && s().mode === 'design',
    perform: () => void addSibling(),
  },
  {
    id: 'root',
    where: 'canvas',
    keys: 'N',
    label: 'Add a new root',
    test: (e) => plain(e) && e.key.toLowerCase() === 'n',
    perform: () => void addRoot(),
  },
  {
    id: 'rename',
    where: 'canvas',
    keys: 'F2',
    label: 'Rename the selected tag',
    test: (e) => e.key === 'F2',
    predicate: one,
    perform: () => s().setEditing(liveSelection()[0]),
  },
  {
    id: 'delete',
    where: 'canvas',
    keys: 'Delete / Backspace',
    label: 'Delete the selected tags with their subtrees',
    test: (e) => plain(e) && (e.key === 'Delete' || e.key === 'Backspace'),
    predicate: hasSelection,
    perform: () => void deleteTags(),
  },
  {
    id: 'left',
    where: 'canvas',
    keys: 'Alt+←',
    label: 'Move the selected tag left among its siblings',
    test: (e) => e.altKey && e.key === 'ArrowLeft',
    predicate: one,
    perform: () => void moveAmongSiblings(liveSelection()[0], -1),
  },
  {
    id: 'right',
    where: 'canvas',
    keys: 'Alt+→',
    label: 'Move the selected tag right among its siblings',
    test: (e) => e.altKey && e.key === 'ArrowRight',
    predicate: one,
    perform: () => void moveAmongSiblings(liveSelection()[0], 1),
  },
  {
    id: 'nav-up',
    where: 'canvas',
    keys: '↑',
    label: 'Select the parent',
    test: (e) => plain(e) && e.key === 'ArrowUp',
    perform: (c) => go('up', c),
  },
  {
    id: 'nav-down',
    where: 'canvas',
    keys: '↓',
    label: 'Select the first child',
    test: (e) => plain(e) && e.key === 'ArrowDown',
    perform: (c) => go('down', c),
  },
  {
    id: 'nav-left',
    where: 'canvas',
    keys: '←',
    label: 'Select the previous sibling',
    test: (e) => plain(e) && e.key === 'ArrowLeft',
    perform: (c) => go('left', c),
  },
  {
    id: 'nav-right',
    where: 'canvas',
    keys: '→',
    label: 'Select the next sibling',
    test: (e) => plain(e) && e.key === 'ArrowRight',
    perform: (c) => go('right', c),
  },
  // Space stays React Flow's hold-to-pan, as in every canvas editor.
  {
    id: 'access',
    where: 'canvas',
    keys: 'A (Enter in Pick scope)',
    label: 'Cycle the selected tags: not granted → read & write → read only',
    test: (e) => plain(e) && (e.key.toLowerCase() === 'a' || (e.key === 'Enter' && s().mode === 'scope')),
    predicate: () => targets().length > 0,
    perform: () => void cycleAccess(targets()),
  },
  {
    id: 'all',
    where: 'canvas',
    keys: 'Ctrl+A',
    label: 'Select every tag',
    test: (e) => mod(e) && e.key.toLowerCase() === 'a',
    perform: () => s().select(s().history.present.tags.map((t) => t.id)),
  },
  {
    id: 'none',
    where: 'canvas',
    keys: 'Esc',
    label: 'Clear the selection',
    test: (e) => e.key === 'Escape',
    perform: () => s().select([]),
  },
  {
    id: 'mode',
    where: 'page',
    keys: 'M',
    label: 'Switch between designing the forest and picking the scope',
    test: (e) => plain(e) && e.key.toLowerCase() === 'm',
    perform: () => s().setMode(s().mode === 'design' ? 'scope' : 'design'),
  },
  {
    id: 'fit',
    where: 'page',
    keys: 'F / Shift+1',
    label: 'Fit the forest to the view',
    test: (e) => (plain(e) && e.key.toLowerCase() === 'f') || (e.shiftKey && e.code === 'Digit1'),
    perform: (c) => c.fitView(),
  },
  {
    id: 'zoom-in',
    where: 'page',
    keys: '+',
    label: 'Zoom in',
    test: (e) => !mod(e) && (e.key === '+' || e.key === '='),
    perform: (c) => c.zoomIn(),
  },
  { id: 'zoom-out', where: 'page', keys: '−', label: 'Zoom out', test: (e) => !mod(e) && e.key === '-', perform: (c) => c.zoomOut() },
  { id: 'pan', where: 'page', keys: 'Space + drag', label: 'Pan the canvas', test: () => false, perform: () => undefined },
  {
    id: 'help',
    where: 'page',
    keys: '?',
    label: 'Show or hide these shortcuts',
    test: (e) => e.key === '?',
    perform: (c) => c.toggleHelp(),
  },
]

/** Whether the keyboard focus is on the canvas (or nowhere in particular). */
function onCanvas(target: EventTarget | null): boolean {
  return !(target instanceof HTMLElement) || target === document.body || target.closest('.forest-canvas') !== null
}

/** Runs the first shortcut that matches; true when one did. */
export function runShortcut(e: KeyboardEvent, ctx: ShortcutContext): boolean {
  const canvas = onCanvas(e.target)
  const hit = SHORTCUTS.find((sc) => (sc.where === 'page' || canvas) && sc.test(e) && (sc.predicate?.() ?? true))
  if (!hit) return false
  hit.perform(ctx)
  return true
}
