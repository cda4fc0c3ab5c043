/**
 * The diagram as SVG or PNG for slides, the way React Flow's docs do it: frame
 * the bounds of every tag and render the viewport element at that transform
 * with html-to-image (1.11.11, the version the docs pin).
 */
import { getNodesBounds, getViewportForBounds, type Node } from '@xyflow/react'
import { toPng, toSvg } from 'html-to-image'

const PADDING = 40
const MAX_SIDE = 8000

export async function renderDiagram(kind: 'svg' | 'png', viewportEl: HTMLElement, nodes: Node[]): Promise<string> {
  const bounds = getNodesBounds(nodes)
  // Room below the last row for the notes shown beside tags.
  bounds.height += 80
  const scale = Math.min(1, MAX_SIDE / Math.max(bounds.width + 2 * PADDING, bounds.height + 2 * PADDING))
  const width = Math.ceil((bounds.width + 2 * PADDING) * scale)
  const height = Math.ceil((bounds.height + 2 * PADDING) * scale)
  const vp = getViewportForBounds(bounds, width, height, 0.01, 2, `${PADDING}px`)
  const options = {
    backgroundColor: '#ffffff',
    width,
    height,
    style: { width: `${width}px`, height: `${height}px`, transform: `translate(${vp.x}px, ${vp.y}px) scale(${vp.zoom})` },
    // Interactive bits (the access buttons' focus rings, handles, fold buttons) stay out of the picture.
    filter: (el: HTMLElement) => !(el.classList?.contains('react-flow__handle') || el.classList?.contains('tag-node__fold')),
  }
  return kind === 'svg'
    ? toSvg(viewportEl, options)
    : toPng(viewportEl, { ...options, pixelRatio: Math.min(2, MAX_SIDE / Math.max(width, height)) })
}
