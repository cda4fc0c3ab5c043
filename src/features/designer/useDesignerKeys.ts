import { useReactFlow } from '@xyflow/react'
import type { KeyboardEvent } from 'react'
import { designerStore } from '../../stores/designerStore'
import { runShortcut, type ShortcutContext } from './shortcuts'
import { FIT_OPTIONS } from './useFitView'

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))

/** The designer's keyboard handler for its page: runs the shortcut registry unless the user is typing. */
export function useDesignerKeys(): (e: KeyboardEvent) => void {
  const flow = useReactFlow()
  const ctx: ShortcutContext = {
    fitView: () => void flow.fitView(FIT_OPTIONS),
    zoomIn: () => void flow.zoomIn({ duration: 150 }),
    zoomOut: () => void flow.zoomOut({ duration: 150 }),
    focusTag: (id) => {
      const node = flow.getNode(id)
      if (node) void flow.setCenter(node.position.x + 100, node.position.y + 34, { zoom: flow.getZoom(), duration: 150 })
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus())
    },
    toggleHelp: () => designerStore.getState().toggleHelp(),
  }
  return (e) => {
    if (typing(e.target)) return
    // A focused button or summary keeps Enter and Space for itself.
    if ((e.key === 'Enter' || e.key === ' ') && e.target instanceof HTMLElement && e.target.closest('button, summary, a, label')) return
    if (runShortcut(e.nativeEvent, ctx)) e.preventDefault()
  }
}
