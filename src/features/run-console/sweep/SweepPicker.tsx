import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { combinationAt, countCombinations, subtreeCounts, type SecurityDomain } from '../../../core/tags'
import { countPick } from '../../../core/sweep'
import { pickOf } from './pickOf'
import { checkNumber, RULES } from '../setup/numbers'
import { setupActions, useSetup } from '../setup/setupStore'
import type { SweepSetup } from '../setup/setupTypes'
import type { DesignerView } from '../workspace/designerView'
import { ScopeChips } from '../../../components/Chips'
import { Segmented } from '../ui/Segmented'

const MODES: ReadonlyArray<{ value: SweepSetup['mode']; label: string }> = [
  { value: 'all', label: 'All threat models' },
  { value: 'tag', label: 'All granting a tag' },
  { value: 'pick', label: 'Pick from the list' },
  { value: 'saved', label: 'Saved threat models' },
]

/** The saved threat models a sweep runs, each with its read-only grant. */
function SavedList({ saved }: { saved: DesignerView['saved'] }) {
  if (saved.length === 0)
    return (
      <p className="rc-muted">
        This workspace has no saved threat models: save some in the designer’s Pick scope panel, or choose another workspace.
      </p>
    )
  return (
    <ul className="rc-list rc-saved-sweep" aria-label="Saved threat models in the sweep">
      {saved.map((m) => (
        <li key={m.id} className="rc-row">
          <span className="rc-pick__name">{m.name}</span>
          <ScopeChips scope={m.scope} readOnly={m.readOnly} />
        </li>
      ))}
    </ul>
  )
}

/** The distinct combinations, reference order, #0 (empty) left out; checkable, virtualized, decoded by index. */
function CombinationChecklist({ domain }: { domain: SecurityDomain }) {
  const picked = useSetup((s) => s.sweep.picked)
  const scrollRef = useRef<HTMLDivElement>(null)
  const total = countCombinations(domain) - 1n
  const counts = subtreeCounts(domain)
  const count = Number(total < 200_000n ? total : 200_000n)
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the project's virtualizer; the compiler cannot memoize it
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => 28, overscan: 8 })
  const chosen = new Set(picked)
  return (
    <div ref={scrollRef} className="rc-combos" role="list" aria-label="Distinct threat models">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const index = BigInt(v.index + 1)
          const names = combinationAt(domain, index, counts).map((t) => t.name)
          const key = index.toString()
          return (
            <label
              key={key}
              role="listitem"
              className="rc-combo"
              title={`#${key}: ${names.join(', ')}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: 28, transform: `translateY(${v.start}px)` }}
            >
              <input
                type="checkbox"
                checked={chosen.has(key)}
                aria-label={`Threat model #${key}: ${names.join(', ')}`}
                onChange={() => setupActions().togglePick(key)}
              />
              <span className="rc-muted rc-combo__index">#{key}</span>
              <ScopeChips scope={names} readOnly={[]} />
            </label>
          )
        })}
      </div>
    </div>
  )
}

export function SweepPicker({ view }: { view: DesignerView }) {
  const { domain, forestError } = view
  const sweep = useSetup((s) => s.sweep)
  const parallel = useSetup((s) => s.threat.parallelModels)
  if (domain === null)
    return (
      <p className="rc-error">
        The forest of “{view.workspace}” is not one superred would accept ({forestError}): fix it to sweep its threat models.
      </p>
    )
  let count: bigint | null = null
  let problem: string | null = sweep.mode === 'tag' && sweep.tag === '' ? 'pick a tag' : null
  if (sweep.mode === 'saved') {
    count = BigInt(view.saved.length)
  } else if (problem === null) {
    try {
      count = countPick(domain, pickOf(sweep))
    } catch (e) {
      problem = (e as Error).message
    }
  }
  const limit = checkNumber(sweep.limit, { label: 'At most', min: 1, integer: true })
  const par = checkNumber(parallel, RULES.parallelModels)
  return (
    <div className="rc-sweep-picker">
      <div className="rc-row">
        <Segmented label="Which threat models" value={sweep.mode} options={MODES} onChange={(mode) => setupActions().setSweep({ mode })} />
        {sweep.mode === 'tag' ? (
          <select
            className="rc-input rc-input--auto"
            aria-label="Tag the threat models grant"
            value={sweep.tag}
            onChange={(e) => setupActions().setSweep({ tag: e.target.value })}
          >
            <option value="">pick a tag…</option>
            {domain.tags.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        ) : null}
        {sweep.mode === 'pick' && sweep.picked.length > 0 ? (
          <button type="button" className="rc-btn rc-btn--small" onClick={() => setupActions().setSweep({ picked: [] })}>
            Clear picks
          </button>
        ) : null}
      </div>
      {sweep.mode === 'pick' ? <CombinationChecklist domain={domain} /> : null}
      {sweep.mode === 'saved' ? <SavedList saved={view.saved} /> : null}
      <div className="rc-row rc-sweep-picker__limits">
        <label className="rc-row">
          Run at most{' '}
          <input
            className="rc-input rc-input--num"
            aria-label="At most this many threat models"
            value={sweep.limit}
            aria-invalid={limit.error ? true : undefined}
            onChange={(e) => setupActions().setSweep({ limit: e.target.value })}
          />{' '}
          threat models,
        </label>
        <label className="rc-row">
          <input
            className="rc-input rc-input--num"
            aria-label="Threat models at once"
            value={parallel}
            aria-invalid={par.error ? true : undefined}
            onChange={(e) => setupActions().setThreat({ parallelModels: e.target.value })}
          />{' '}
          threat models at once
        </label>
        <span className="rc-muted" data-testid="sweep-count">
          {problem ??
            (sweep.mode === 'saved'
              ? `${count!.toLocaleString('en-US')} saved threat model${count === 1n ? '' : 's'} in “${view.workspace}”`
              : `${count!.toLocaleString('en-US')} threat model${count === 1n ? '' : 's'} match (the empty scope is skipped)`)}
        </span>
      </div>
      {limit.error || par.error ? <p className="rc-issue">{limit.error ?? par.error}</p> : null}
    </div>
  )
}
