import { hierarchy, tree } from 'd3-hierarchy'
import type { Forest } from '../../../core/tags'

interface Node {
  readonly name: string
  readonly children: Node[]
}

export interface DiagramLayout {
  readonly width: number
  readonly height: number
  readonly nodes: ReadonlyArray<{ name: string; x: number; y: number }>
  readonly links: ReadonlyArray<{ from: string; to: string; x1: number; y1: number; x2: number; y2: number }>
}

const DX = 130
const DY = 64

/** A tidy top-down layout of the forest (roots side by side under an invisible top). */
export function layoutDiagram(forest: Forest): DiagramLayout {
  const byName = new Map<string, Node>()
  for (const t of forest.tags) byName.set(t.name, { name: t.name, children: [] })
  const roots: Node[] = []
  for (const t of forest.tags) {
    const node = byName.get(t.name)!
    const parent = t.parent === null ? undefined : byName.get(t.parent)
    // A parent cycle or a dangling parent: draw the tag as a root rather than loop.
    if (parent && parent !== node) parent.children.push(node)
    else roots.push(node)
  }
  const seen = new Set<string>()
  const prune = (n: Node): Node => {
    seen.add(n.name)
    return { name: n.name, children: n.children.filter((c) => !seen.has(c.name)).map(prune) }
  }
  const top: Node = { name: '', children: roots.map(prune) }
  const root = tree<Node>().nodeSize([DX, DY])(hierarchy(top))
  const all = root.descendants().filter((d) => d.depth > 0)
  const minX = Math.min(0, ...all.map((d) => d.x))
  const maxX = Math.max(0, ...all.map((d) => d.x))
  const maxDepth = Math.max(1, ...all.map((d) => d.depth))
  const px = (x: number) => x - minX + DX / 2
  const py = (depth: number) => (depth - 1) * DY + 24
  return {
    width: maxX - minX + DX,
    height: maxDepth * DY,
    nodes: all.map((d) => ({ name: d.data.name, x: px(d.x), y: py(d.depth) })),
    links: all
      .filter((d) => d.parent && d.parent.depth > 0)
      .map((d) => ({
        from: d.parent!.data.name,
        to: d.data.name,
        x1: px(d.parent!.x),
        y1: py(d.parent!.depth) + 14,
        x2: px(d.x),
        y2: py(d.depth) - 14,
      })),
  }
}
