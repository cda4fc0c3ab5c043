import { Handle, Position, type Node, type NodeProps } from '@xyflow/react'

export type TagNodeData = { name: string; description: string }
export type TagFlowNode = Node<TagNodeData, 'tag'>

/** One capability tag. Names and descriptions are user data: rendered as text only. */
export function TagNode({ data }: NodeProps<TagFlowNode>) {
  return (
    <div className="tag-node" title={data.description || undefined}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="tag-node__name">{data.name}</span>
      {data.description ? <span className="tag-node__description">{data.description}</span> : null}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  )
}
