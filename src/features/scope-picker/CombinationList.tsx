import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState } from 'react'
import { filterCombinations, type TagId } from '../../core/model'
import type { SecurityDomain, SecurityDomainTag } from '../../core/tags'
import { useDesigner } from '../../stores/designerStore'
import { countsOf, selectDoc } from '../../stores/selectors'
import { notify } from '../../stores/noticeStore'
import { nounFor } from '../../lib/plural'
import { create } from 'zustand'

/**
 * The list's "Containing" filter lives outside the component, so that it is
 * still set after the user switches to another tab of the side panel and back
 * (the tab's content is unmounted meanwhile). Names, not ids: it also survives
 * an undo that recreates a tag.
 */
const useComboFilter = create<{ names: string[]; set: (names: string[]) => void }>((set) => ({ names: [], set: (names) => set({ names }) }))

const ROW = 30
/** Browsers cap an element's height; past this many rows the list pages with "Jump to". */
const WINDOW = 500_000n

function Rows({
  domain,
  required,
  counts,
}: {
  domain: SecurityDomain
  required: SecurityDomainTag[]
  counts: Map<SecurityDomainTag, bigint>
}) {
  const doc = useDesigner(selectDoc)
  const dispatch = useDesigner((s) => s.dispatch)
  const filter = useMemo(() => filterCombinations(domain, required, counts), [domain, required, counts])
  const [offset, setOffset] = useState(0n)
  const [jump, setJump] = useState('')
  const scrollRef = useRef<HTMLDivElement>(null)
  const rest = filter.count - offset
  const count = Number(rest < WINDOW ? rest : WINDOW)
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the virtualizer the project chose; it is not memoizable by the compiler
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 8 })
  const idOf = new Map(doc.tags.map((t) => [t.name, t.id]))
  const current = doc.readOnly.length === 0 ? [...doc.scope].sort().join(',') : null
  return (
    <>
      {filter.count > WINDOW ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault()
            try {
              const n = BigInt(jump.trim())
              if (n >= 0n && n < filter.count) setOffset(n)
            } catch {
              /* not a number: keep the view */
            }
          }}
        >
          <label className="field__label" htmlFor="combo-jump">
            Jump to match number
          </label>
          <input
            id="combo-jump"
            className="input input--small"
            value={jump}
            onChange={(e) => setJump(e.target.value)}
            inputMode="numeric"
          />
          <button type="submit" className="btn btn--small">
            Go
          </button>
        </form>
      ) : null}
      <div ref={scrollRef} className="combo-list" role="list" aria-label="Distinct threat models">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const { index, tags } = filter.at(offset + BigInt(v.index))
            const ids = tags.map((t) => idOf.get(t.name)).filter((x): x is TagId => x !== undefined)
            const names = tags.map((t) => t.name)
            const isCurrent = current !== null && [...ids].sort().join(',') === current
            return (
              <div
                key={v.key}
                role="listitem"
                className={`combo${isCurrent ? ' combo--current' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${v.start}px)` }}
              >
                <button
                  type="button"
                  className="combo__apply"
                  aria-label={`Apply threat model ${index}: ${names.join(', ') || 'empty'}`}
                  title={`#${index}: ${names.join(', ') || 'empty scope'}`}
                  onClick={() => {
                    // A distinct combination grants read & write only: applying it clears read_only, and says so.
                    const dropped = doc.tags.filter((t) => doc.readOnly.includes(t.id)).map((t) => t.name)
                    dispatch({ type: 'setScope', scope: ids, readOnly: [] })
                    if (dropped.length > 0) {
                      notify(
                        'info',
                        `Applied threat model #${index}. It grants read & write only, so the read-only ${nounFor(dropped.length, 'tag')} ${dropped.join(', ')} ${dropped.length === 1 ? 'was' : 'were'} cleared; undo (Ctrl+Z) brings ${dropped.length === 1 ? 'it' : 'them'} back.`,
                      )
                    }
                  }}
                >
                  <span className="combo__index">#{index.toString()}</span>
                  {names.length === 0 ? (
                    <span className="muted">∅ empty scope</span>
                  ) : (
                    names.map((n) => (
                      <span key={n} className="chip chip--scope">
                        {n}
                      </span>
                    ))
                  )}
                </button>
              </div>
            )
          })}
        </div>
      </div>
    </>
  )
}

/** superred's distinct_combinations(), counted not enumerated, browsable and filterable by tag. */
export function CombinationBrowser() {
  const tags = useDesigner((s) => s.history.present.tags)
  const info = countsOf(tags)
  const filterNames = useComboFilter((s) => s.names)
  const setFilterNames = useComboFilter((s) => s.set)
  const required = useMemo(
    () => (info ? filterNames.map((n) => info.domain.get(n)).filter((t): t is SecurityDomainTag => t !== undefined) : []),
    [info, filterNames],
  )
  if (!info) return <p className="finding finding--error">Fix the forest first: superred would refuse it, so it has no threat models.</p>
  const filtered = filterCombinations(info.domain, required, info.counts).count
  return (
    <section className="combos" aria-label="Threat models of this forest">
      <p className="combos__count">
        <strong data-testid="combination-count">{info.total.toLocaleString('en-US')}</strong> distinct threat models by superred's count
        (scopes that are antichains, in superred's order); #0 is the empty scope, which grants nothing, so a sweep of them all runs{' '}
        {(info.total - 1n).toLocaleString('en-US')}.
      </p>
      <div className="row combos__filter">
        <label className="field__label" htmlFor="combo-filter">
          Containing
        </label>
        <select
          id="combo-filter"
          className="input"
          value=""
          onChange={(e) => e.target.value && setFilterNames([...filterNames, e.target.value])}
        >
          <option value="">add a tag…</option>
          {tags
            .filter((t) => !filterNames.includes(t.name))
            .map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
        </select>
        {filterNames.map((n) => (
          <button
            key={n}
            type="button"
            className="chip chip--removable"
            aria-label={`Remove filter ${n}`}
            onClick={() => setFilterNames(filterNames.filter((x) => x !== n))}
          >
            {n} ×
          </button>
        ))}
      </div>
      {filterNames.length > 0 ? (
        <p className="muted" data-testid="filtered-count">
          {filtered.toLocaleString('en-US')} contain {filterNames.join(' and ')}.
        </p>
      ) : null}
      <Rows key={filterNames.join('|') + ':' + info.total.toString()} domain={info.domain} required={required} counts={info.counts} />
    </section>
  )
}
