import { useReactFlow } from '@xyflow/react'

export const FIT_OPTIONS = { maxZoom: 1.1, padding: 0.15, duration: 250 } as const

/** Fits the forest to the view once React Flow has the new nodes (fitView waits for them). */
export function useFitView(): () => void {
  const flow = useReactFlow()
  return () => void flow.fitView(FIT_OPTIONS)
}
