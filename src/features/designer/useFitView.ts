import { useReactFlow, type ReactFlowInstance } from '@xyflow/react'
import { notify } from '../../stores/noticeStore'
import { canvasViewStore } from '../../stores/canvasViewStore'
import { designerStore } from '../../stores/designerStore'
import { selectDoc } from '../../stores/selectors'
import { chooseDensity, fitViewport } from './densityChoice'
import { currentLayout, visibleTagsOf } from './layoutCache'

/** Small enough that a 300-tag forest fits a laptop screen in either layout. */
export const MIN_ZOOM = 0.01
/**
 * Past this many tags on the canvas, fitting them all would mount every one of them at once (the
 * canvas draws only what is on screen): the forest is framed from its top-left corner at a readable
 * zoom instead, and the user is told why and what to do.
 */
export const FIT_ALL_UP_TO = 1500
const CORNER_ZOOM = 0.4
const PAD = 24
/** Past this many tags, choosing a density (a few trial layouts) is not worth its time: nothing that large fits legibly. */
const CHOOSE_DENSITY_UP_TO = 400

export type FitOutcome = 'all' | 'corner' | 'empty' | 'no-pane'

/**
 * Fits the whole forest to the view from the layout itself, not from measured
 * nodes: a large forest only mounts the tags on screen, so React Flow's own
 * fitView would frame just those. Folded subtrees and the layout direction are
 * taken into account (the layout is the one drawn). Unless the user picked a
 * density, the fit picks it first: compact when the normal one would draw the
 * names too small to read (see chooseDensity).
 */
export function fitForest(
  flow: Pick<ReactFlowInstance, 'setViewport'>,
  duration = 0,
  size?: { width: number; height: number },
): FitOutcome {
  const pane = size ?? document.querySelector('.forest-canvas')?.getBoundingClientRect()
  if (!pane || pane.width === 0 || pane.height === 0) return 'no-pane'
  const view = canvasViewStore.getState()
  const visible = visibleTagsOf(selectDoc(designerStore.getState()).tags, view.folded)
  if (!view.densityPinned && visible.length <= CHOOSE_DENSITY_UP_TO)
    view.autoView(chooseDensity(visible, view.direction, pane, !view.directionPinned))
  const layout = currentLayout()
  if (layout.size === 0) {
    void flow.setViewport({ x: pane.width / 2, y: 80, zoom: 1 }, { duration })
    return 'empty'
  }
  const vp = fitViewport(layout, canvasViewStore.getState().density, pane, MIN_ZOOM / 2)
  if (layout.size <= FIT_ALL_UP_TO && vp.zoom >= MIN_ZOOM) {
    void flow.setViewport(vp, { duration })
    return 'all'
  }
  let minX = Infinity
  let minY = Infinity
  for (const p of layout.values()) {
    minX = Math.min(minX, p.x)
    minY = Math.min(minY, p.y)
  }
  void flow.setViewport({ x: PAD - minX * CORNER_ZOOM, y: PAD - minY * CORNER_ZOOM, zoom: CORNER_ZOOM }, { duration })
  return 'corner'
}

/** Fits the forest to the view (after the store has the new forest: the layout is read from it), and says so when it cannot. */
export function fitAndTell(flow: Pick<ReactFlowInstance, 'setViewport'>, duration = 250): FitOutcome {
  const outcome = fitForest(flow, duration)
  if (outcome === 'corner') {
    notify(
      'info',
      `The forest is too large to show whole at a readable size: showing its top-left corner. Fold subtrees (the ▾ on a tag) or switch to the left-to-right layout, then fit again.`,
    )
  }
  return outcome
}

export function useFitView(): () => void {
  const flow = useReactFlow()
  return () => {
    fitAndTell(flow)
  }
}
