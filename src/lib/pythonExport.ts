/**
 * Writes a forest as a superred `security_tags.py` module in the style of the
 * shipped targets: a module docstring that states the design (the guide's
 * principles and the forest drawn as trees), one typed assignment per tag with
 * its description as an attribute docstring, one section per tree, and the
 * assembled SecurityDomain. `parseSecurityTags` reads it back unchanged.
 */
import { childrenIndex, type DesignTag, type TagId } from '../core/model'
import type { Forest } from '../core/tags'

const LINE = 99

/** A Python string literal. JSON's escapes are all valid in Python source. */
function pyString(s: string): string {
  return JSON.stringify(s)
}

/** Text safe inside a triple-quoted docstring. */
function docSafe(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').replace(/"$/, '\\"')
}

function wrap(text: string, width: number, indent = ''): string[] {
  const words = text.split(' ')
  const lines: string[] = []
  let cur = ''
  for (const w of words) {
    if (cur && (indent + cur + ' ' + w).length > width) {
      lines.push(indent + cur)
      cur = w
    } else cur = cur ? `${cur} ${w}` : w
  }
  if (cur || lines.length === 0) lines.push(indent + cur)
  return lines
}

/** UPPER_SNAKE variable names ending in _TAG, unique and valid identifiers. */
export function variableNames(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  const taken = new Set(['DOMAIN'])
  for (const n of names) {
    let base =
      n
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toUpperCase()
        .replace(/[^A-Z0-9_]+/g, '_')
        .replace(/^_+|_+$/g, '') || 'UNNAMED'
    if (/^\d/.test(base)) base = `T_${base}`
    let v = `${base}_TAG`
    for (let k = 2; taken.has(v); k++) v = `${base}_${k}_TAG`
    taken.add(v)
    out.set(n, v)
  }
  return out
}

const PRINCIPLES = [
  'Each tag names a capability an attacker can be granted (what can be touched), never a persona.',
  'A child is a strictly weaker capability than its parent: granting the parent grants it.',
  "Read-only access is a scope decision (the Controller's read_only), not a tag of its own.",
  'Knowledge (say, which model is in use) sits on its own tag, apart from control.',
  'Independent channels are independent trees (separate roots).',
  'Each separately-compromisable data store gets its own leaf.',
  'A scope is an antichain: never grant a tag together with one of its ancestors.',
]

const MAX_DRAWN_DEPTH = 24

/** How many tags lie below each tag (one pre-order pass, then sums back up). */
function descendantCounts(roots: readonly TagId[], children: Map<TagId | null, TagId[]>): Map<TagId, number> {
  const order: Array<{ id: TagId; parent: TagId | null }> = []
  const stack: Array<{ id: TagId; parent: TagId | null }> = roots.map((id) => ({ id, parent: null }))
  while (stack.length > 0) {
    const f = stack.pop()!
    order.push(f)
    for (const k of children.get(f.id) ?? []) stack.push({ id: k, parent: f.id })
  }
  const counts = new Map<TagId, number>()
  for (let i = order.length - 1; i >= 0; i--) {
    const { id, parent } = order[i]
    if (parent !== null) counts.set(parent, (counts.get(parent) ?? 0) + (counts.get(id) ?? 0) + 1)
  }
  return counts
}

export function forestToPython(forest: Forest, title = 'Security domains'): string {
  // Ids equal names here: a valid forest has unique names.
  const tags: DesignTag[] = forest.tags.map((t) => ({
    id: t.name as TagId,
    name: t.name,
    parent: t.parent as TagId | null,
    description: t.description,
  }))
  const children = childrenIndex(tags)
  const byName = new Map(tags.map((t) => [t.name, t]))
  const vars = variableNames(forest.tags.map((t) => t.name))
  const roots = children.get(null) ?? []

  // The drawing is for reading: past MAX_DRAWN_DEPTH levels a subtree is summarised (a 5,000-deep chain
  // would otherwise draw lines thousands of characters wide). Iterative, so no depth overflows the stack.
  const drawing: string[] = []
  const below = descendantCounts(roots, children)
  roots.forEach((r, i) => {
    if (i > 0) drawing.push('')
    drawing.push(`Tree ${i + 1}:`)
    const stack: Array<{ id: TagId; prefix: string; last: boolean; depth: number }> = [{ id: r, prefix: '', last: true, depth: 0 }]
    while (stack.length > 0) {
      const { id, prefix, last, depth } = stack.pop()!
      const t = byName.get(id)!
      const label = depth === 0 ? t.name : `${prefix}${last ? '└── ' : '├── '}${t.name}`
      drawing.push(t.description ? `${label.padEnd(36)} ${t.description}` : label)
      const kids = children.get(id) ?? []
      const next = depth === 0 ? '' : `${prefix}${last ? '    ' : '│   '}`
      if (kids.length > 0 && depth + 1 >= MAX_DRAWN_DEPTH) {
        const n = below.get(id) ?? 0
        drawing.push(`${next}└── … ${n} more tag${n === 1 ? '' : 's'} below`)
        continue
      }
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ id: kids[k], prefix: next, last: k === kids.length - 1, depth: depth + 1 })
    }
  })

  const out: string[] = []
  out.push(`"""${docSafe(title)}: a superred SecurityDomain forest.`, '')
  out.push(
    ...wrap(
      `${forest.tags.length} tag${forest.tags.length === 1 ? '' : 's'} in ${roots.length} independent tree${roots.length === 1 ? '' : 's'}. ` +
        'A parent includes all of its descendants; order is meaningful (it fixes the order of distinct_combinations()).',
      80,
    ),
  )
  out.push('', 'Design principles (superred security-domains guide):', '')
  PRINCIPLES.forEach((p, i) => out.push(...wrap(p, 77).map((l, k) => (k === 0 ? `${i + 1}. ${l}` : `   ${l}`))))
  out.push('', 'The forest:', '')
  out.push(...drawing.map((l) => `    ${docSafe(l)}`.trimEnd()))
  out.push(
    '"""',
    '',
    'from __future__ import annotations',
    '',
    'from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag',
    '',
  )

  const order: string[] = []
  const section = (root: TagId, n: number) => {
    const t = byName.get(root)!
    out.push('', `# ${'-'.repeat(75)}`, `# Tree ${n}: ${t.name}`, `# ${'-'.repeat(75)}`, '')
    const stack = [root]
    while (stack.length) {
      const id = stack.pop()!
      const tag = byName.get(id)!
      order.push(tag.name)
      const v = vars.get(tag.name)!
      const args = tag.parent === null ? pyString(tag.name) : `${pyString(tag.name)}, parent=${vars.get(tag.parent)!}`
      const one = `${v}: SecurityDomainTag = SecurityDomainTag(${args})`
      out.push(...(one.length <= LINE ? [one] : [`${v}: SecurityDomainTag = SecurityDomainTag(`, `    ${args}`, ')']))
      if (tag.description) {
        const doc = wrap(docSafe(tag.description), 80)
        out.push(doc.length === 1 ? `"""${doc[0]}"""` : [`"""${doc[0]}`, ...doc.slice(1, -1), `${doc[doc.length - 1]}"""`].join('\n'))
      }
      out.push('')
      const kids = children.get(id) ?? []
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i])
    }
  }
  roots.forEach((r, i) => section(r, i + 1))
  out.push('', `# ${'-'.repeat(75)}`, '# Assembled SecurityDomain (order is meaningful)', `# ${'-'.repeat(75)}`, '')
  out.push('DOMAIN: SecurityDomain = SecurityDomain(', '    [')
  out.push(...order.map((n) => `        ${vars.get(n)!},`))
  out.push('    ]', ')', '', '__all__ = [', ...order.map((n) => `    ${pyString(vars.get(n)!)},`), '    "DOMAIN",', ']', '')
  return out.join('\n')
}
