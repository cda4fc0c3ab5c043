/**
 * The forest as an inline SVG for the report, left to right (a wide forest
 * becomes a tall picture, which fits a printed page), each tag filled and
 * worded as the app paints it (src/core/sweep/paint.ts: the frontier's view
 * when one is known, else the ASR with the tag against without it) and
 * outlined by the grant of a single experiment. Every name is escaped text;
 * nothing in it can run.
 */
import { hierarchy, tree } from 'd3-hierarchy'
import { escapeHtml as e } from '../finding/renderHtml'
import { contrastFill, contrastWords, frontierFill, frontierWords, type TagPaintWords } from '../sweep/paint'
import type { ReportTagPaint } from './reportModel'

const W = 200
const H = 64
const COL = W + 56
const ROW = H + 10
const PAD = 8

/**
 * The words' colours, set on each text (not left to the viewer's default): dark enough for WCAG AA (4.5:1) on every
 * fill of the painting, the deepest red included (contrast.test.ts checks each pair).
 */
export const NAME_TEXT = '#000000'
export const RATE_TEXT = '#212529'

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** A tag's fill and words: the frontier's when the report has one, else with against without. */
export function tagPaintOf(t: ReportTagPaint): { fill: string; words: TagPaintWords } {
  return t.frontier
    ? { fill: frontierFill(t.frontier), words: frontierWords(t.frontier) }
    : { fill: contrastFill(t.contrast), words: contrastWords(t.contrast) }
}

interface Node {
  name: string
  tag: ReportTagPaint | null
  children: Node[]
}

export function forestSvg(tags: readonly ReportTagPaint[]): string {
  const nodes = new Map<string, Node>(tags.map((t) => [t.name, { name: t.name, tag: t, children: [] }]))
  const top: Node = { name: '', tag: null, children: [] }
  const placed = new Set<string>()
  for (const t of tags) {
    if (placed.has(t.name)) continue
    placed.add(t.name)
    ;((t.parent !== null ? nodes.get(t.parent) : undefined) ?? top).children.push(nodes.get(t.name)!)
  }
  const root = tree<Node>().nodeSize([ROW, COL])(hierarchy(top))
  const shown = root.descendants().filter((n) => n !== root)
  if (shown.length === 0) return ''
  const minY = Math.min(...shown.map((n) => n.x)) - H / 2
  const maxY = Math.max(...shown.map((n) => n.x)) + H / 2
  const maxX = Math.max(...shown.map((n) => n.y))
  const width = maxX - COL + W + 2 * PAD
  const height = maxY - minY + 2 * PAD
  const x = (n: { y: number }) => n.y - COL + PAD
  const y = (n: { x: number }) => n.x - minY + PAD
  const edges = shown
    .filter((n) => n.parent && n.parent !== root)
    .map((n) => {
      const p = n.parent!
      const x1 = x(p) + W
      const y1 = y(p)
      const x2 = x(n)
      const y2 = y(n)
      const mid = (x1 + x2) / 2
      return `<path d="M${x1} ${y1}H${mid}V${y2}H${x2}" class="edge"/>`
    })
    .join('')
  const boxes = shown
    .map((n) => {
      const t = n.data.tag!
      const { fill, words } = tagPaintOf(t)
      const grant = t.grant === 'write' ? 'read & write' : t.grant === 'read' ? 'read only' : 'not granted'
      const title = `${t.name}${t.description ? `: ${t.description}` : ''} (${grant}). ${words.title}`
      const lines = words.lines
        .map((line, i) => `<text x="8" y="${30 + 13 * i}" class="rate" fill="${RATE_TEXT}">${e(cut(line, 34))}</text>`)
        .join('')
      return (
        `<g class="tag g-${t.grant}" transform="translate(${x(n)} ${y(n) - H / 2})"><title>${e(title)}</title>` +
        `<rect width="${W}" height="${H}" rx="6" fill="${fill}"/>` +
        `<text x="8" y="15" class="name" fill="${NAME_TEXT}">${e(cut(t.name, 26))}</text>${lines}</g>`
      )
    })
    .join('')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="forest-svg" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}" width="${Math.ceil(width)}" role="img" aria-label="The forest, painted with the results">` +
    `${edges}${boxes}</svg>`
  )
}
