import { Background, Controls, MiniMap, ReactFlow } from '@xyflow/react'
import { useMemo } from 'react'
import type { Forest } from '../../core/tags'
import { forestGraph } from './forestGraph'
import { TagNode } from './TagNode'

const nodeTypes = { tag: TagNode }

export function ForestCanvas({ forest }: { forest: Forest }) {
  const { nodes, edges } = useMemo(() => forestGraph(forest), [forest])
  return (
    <div className="forest-canvas" aria-label="Security domain forest">
      <ReactFlow nodes={nodes} edges={edges} nodeTypes={nodeTypes} fitView fitViewOptions={{ maxZoom: 1.1 }} nodesConnectable={false} proOptions={{ hideAttribution: true }}>
        <Background />
        <MiniMap pannable zoomable nodeColor="#8a94a6" />
        <Controls />
      </ReactFlow>
    </div>
  )
}
