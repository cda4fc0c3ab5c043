/**
 * The forest as an inline SVG for the report, left to right (a wide forest
 * becomes a tall picture, which fits a printed page), each tag filled by the
 * success rate of the threat models that grant it and outlined by the grant of
 * a single experiment. Every name is escaped text; nothing in it can run.
 */
import { hierarchy, tree } from 'd3-hierarchy'
import { escapeHtml as e } from '../finding/renderHtml'
import type { ReportTagPaint } from './reportModel'

const W = 190
const H = 38
const COL = W + 56
const ROW = H + 10
const PAD = 8

/** White (0%) to deep red (100%); grey when no threat model with results grants the tag. */
export function rateFill(rate: number | null): string {
  if (rate === null) return '#f1f3f5'
  const t = Math.max(0, Math.min(1, rate))
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t)
  return `rgb(${mix(255, 201)},${mix(245, 42)},${mix(245, 42)})`
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

interface Node { name: string; tag: ReportTagPaint | null; children: Node[] }

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
  const edges = shown.filter((n) => n.parent && n.parent !== root).map((n) => {
    const p = n.parent!
    const x1 = x(p) + W
    const y1 = y(p)
    const x2 = x(n)
    const y2 = y(n)
    const mid = (x1 + x2) / 2
    return `<path d="M${x1} ${y1}H${mid}V${y2}H${x2}" class="edge"/>`
  }).join('')
  const boxes = shown.map((n) => {
    const t = n.data.tag!
    const pct = t.rate === null ? 'no results' : `${Math.round(t.rate * 100)}% · ${t.models} model${t.models === 1 ? '' : 's'}`
    const title = `${t.name}${t.description ? `: ${t.description}` : ''} (${t.grant === 'write' ? 'read & write' : t.grant === 'read' ? 'read only' : 'not granted'}; success ${pct})`
    return `<g class="tag g-${t.grant}" transform="translate(${x(n)} ${y(n) - H / 2})"><title>${e(title)}</title>` +
      `<rect width="${W}" height="${H}" rx="6" fill="${rateFill(t.rate)}"/>` +
      `<text x="8" y="15" class="name">${e(cut(t.name, 26))}</text><text x="8" y="30" class="rate">${e(pct)}</text></g>`
  }).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" class="forest-svg" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}" width="${Math.ceil(width)}" role="img" aria-label="The forest, painted with the results">` +
    `${edges}${boxes}</svg>`
}
