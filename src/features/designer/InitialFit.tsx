import { useReactFlow, useStore } from '@xyflow/react'
import { useEffect, useRef } from 'react'
import { fitForest } from './useFitView'

/**
 * Fits the forest once the canvas has its real size. React Flow measures its
 * pane with a ResizeObserver; fitting earlier (on init) can use a size from
 * before the page's grid settled, and frame the forest for the wrong width.
 */
export function InitialFit() {
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)
  const flow = useReactFlow()
  const done = useRef(false)
  useEffect(() => {
    if (done.current || width === 0 || height === 0) return
    done.current = true
    fitForest(flow, 0, { width, height })
  }, [width, height, flow])
  return null
}
