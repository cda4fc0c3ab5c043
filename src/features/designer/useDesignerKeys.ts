import { useReactFlow, type ReactFlowInstance } from '@xyflow/react'
import { useEffect } from 'react'
import type { TagId } from '../../core/model'
import { designerStore } from '../../stores/designerStore'
import { runShortcut, type ShortcutContext } from './shortcuts'
import { fitAndTell } from './useFitView'
import { revealTag } from './revealTag'

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))

function contextFor(flow: ReactFlowInstance): ShortcutContext {
  return {
    fitView: () => {
      fitAndTell(flow)
    },
    zoomIn: () => void flow.zoomIn({ duration: 150 }),
    zoomOut: () => void flow.zoomOut({ duration: 150 }),
    focusTag: (id: TagId) => {
      revealTag(flow, id)
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus())
    },
    toggleHelp: () => designerStore.getState().toggleHelp(),
  }
}

/**
 * The designer's keyboard shortcuts, listened for on the whole window while
 * the designer is on screen (a deleted tag takes the focus with it, and
 * Ctrl+Z must still work), except while the user types in a field.
 */
export function useDesignerKeys(): void {
  const flow = useReactFlow()
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || typing(e.target)) return
      // A focused button, link or menu keeps Enter and Space for itself.
      if ((e.key === 'Enter' || e.key === ' ') && e.target instanceof HTMLElement && e.target.closest('button, summary, a, label')) return
      if (runShortcut(e, contextFor(flow))) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [flow])
}
