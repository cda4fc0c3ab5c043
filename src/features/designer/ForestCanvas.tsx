import { Background, Controls, MiniMap, Panel, ReactFlow, type NodeChange, type NodeMouseHandler } from '@xyflow/react'
import { useMemo, useState } from 'react'
import type { TagId } from '../../core/model'
import { designerStore, useDesigner } from '../../stores/designerStore'
import { coverageOf, selectTags } from '../../stores/selectors'
import { cycleAccess } from './designerActions'
import { createNodeBuilder, type TagFlowNode } from './forestNodes'
import { edgesFor, layoutOf, visibleTagsOf } from './layoutCache'
import { useCanvasView } from '../../stores/canvasViewStore'
import { TagEdge } from './TagEdge'
import { TagNode } from './TagNode'
import { useTagDrag } from './useTagDrag'
import { MIN_ZOOM } from './useFitView'
import { InitialFit } from './InitialFit'
import { KeepSelectionInView } from './KeepSelectionInView'
import { EmptyForest } from './EmptyForest'

const nodeTypes = { tag: TagNode }
const edgeTypes = { tag: TagEdge }
const MINIMAP_COLOUR: Record<string, string> = { write: '#e03131', read: '#1c7ed6', none: '#adb5bd' }

/** Large forests render only what is on screen; an export asks for everything. */
const VISIBLE_ONLY_FROM = 150
/** The overview draws every tag on each change: past this size it is off unless asked for. */
const MINIMAP_UP_TO = 500

/**
 * The forest as a React Flow graph. Layout and wiring only: nodes are derived
 * from the document (positions from the tidy-tree layout), edits go through the
 * designer's actions, and each tag node reads its own state from the store.
 */
export function ForestCanvas() {
  const renderAll = useDesigner((s) => s.renderAll)
  // The tags, not the document: a scope click does not re-render the canvas (each TagNode reads its grant).
  const tags = useDesigner(selectTags)
  const selected = useDesigner((s) => s.selected)
  const mode = useDesigner((s) => s.mode)
  const [build] = useState(createNodeBuilder)
  const [mapWanted, setMapWanted] = useState<boolean | null>(null)
  const showMap = tags.length > 0 && (mapWanted ?? tags.length <= MINIMAP_UP_TO)
  const { drag, onNodeDragStart, onNodeDrag, onNodeDragStop } = useTagDrag()

  const direction = useCanvasView((s) => s.direction)
  const folded = useCanvasView((s) => s.folded)
  const density = useCanvasView((s) => s.density)
  // Tags under a folded tag are left off the canvas altogether (layout, nodes and edges).
  const visible = visibleTagsOf(tags, folded)
  // Only an overview on screen needs the coverage here (it colours every tag).
  const mapCoverage = useDesigner((s) =>
    showMap ? coverageOf(s.history.present.tags, s.history.present.scope, s.history.present.readOnly) : null,
  )
  const layout = layoutOf(visible, direction, density)
  const selectedSet = useMemo(() => new Set(selected), [selected])
  const edges = edgesFor(visible)
  const nodes = useMemo(
    () =>
      build({
        tags: visible,
        layout,
        selected: selectedSet,
        draggable: mode === 'design',
        dragPositions: drag?.positions ?? null,
        drop: drag?.drop?.over ?? null,
        direction,
      }),
    [build, visible, layout, selectedSet, mode, drag, direction],
  )

  const onNodesChange = (changes: NodeChange<TagFlowNode>[]) => {
    const select = changes.filter((c) => c.type === 'select')
    if (select.length === 0) return
    const next = new Set(designerStore.getState().selected)
    for (const c of select) {
      if (c.selected) next.add(c.id as TagId)
      else next.delete(c.id as TagId)
    }
    designerStore.getState().select([...next])
  }
  const onNodeClick: NodeMouseHandler<TagFlowNode> = (event, node) => {
    // The pointer does not move focus on the canvas (the pan/zoom layer swallows it): move it
    // here, so that Space, Delete or Tab act on this tag and not on the last button pressed.
    if (event.currentTarget instanceof HTMLElement) event.currentTarget.focus({ preventScroll: true })
    if (event.shiftKey || event.metaKey || event.ctrlKey) return
    // A plain click selects just this tag, even inside a multi-selection (React Flow would keep them all).
    designerStore.getState().select([node.id as TagId])
    if (designerStore.getState().mode === 'scope') cycleAccess([node.id as TagId])
  }
  const onNodeDoubleClick: NodeMouseHandler<TagFlowNode> = (_e, node) => {
    if (designerStore.getState().mode === 'design') designerStore.getState().setEditing(node.id as TagId)
  }

  const onPaneClick = () => {
    if (document.activeElement instanceof HTMLElement && document.activeElement.closest('.toolbar, .tag-node'))
      document.activeElement.blur()
  }

  return (
    <div
      className={`forest-canvas forest-canvas--${mode} forest-canvas--${direction} forest-canvas--${density}`}
      aria-label="Security domain forest"
      data-direction={direction}
      data-density={density}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={onNodeClick}
        onNodeDoubleClick={onNodeDoubleClick}
        onPaneClick={onPaneClick}
        onNodeDragStart={onNodeDragStart}
        onNodeDrag={onNodeDrag}
        onNodeDragStop={onNodeDragStop}
        onlyRenderVisibleElements={!renderAll && tags.length >= VISIBLE_ONLY_FROM}
        minZoom={MIN_ZOOM}
        maxZoom={2}
        nodesConnectable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Shift', 'Meta', 'Control']}
        disableKeyboardA11y
        nodeDragThreshold={4}
        zoomOnDoubleClick={false}
        proOptions={{ hideAttribution: true }}
      >
        <InitialFit />
        <KeepSelectionInView />
        <Background gap={24} />
        {showMap ? (
          <MiniMap
            pannable
            zoomable
            ariaLabel="Overview of the forest"
            nodeColor={(n) => MINIMAP_COLOUR[mapCoverage?.get(n.id as TagId)?.effective ?? 'none']}
          />
        ) : null}
        {tags.length > 0 ? (
          <Panel position="bottom-right" className="map-toggle" style={showMap ? { marginBottom: 170 } : undefined}>
            <button
              type="button"
              className="btn btn--small"
              onClick={() => setMapWanted(!showMap)}
              title={
                tags.length > MINIMAP_UP_TO
                  ? `Off by default past ${MINIMAP_UP_TO.toLocaleString('en-US')} tags: it redraws every tag on each change`
                  : undefined
              }
            >
              {showMap ? 'Hide overview' : 'Show overview'}
            </button>
          </Panel>
        ) : null}
        <Controls showInteractive={false} />
        {drag?.drop ? (
          <Panel position="top-center" className="drop-hint" role="status">
            {drag.drop.hint}
          </Panel>
        ) : null}
        {tags.length === 0 ? <EmptyForest /> : null}
      </ReactFlow>
    </div>
  )
}
