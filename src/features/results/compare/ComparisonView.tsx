/**
 * What changed from BASE to HEAD, read with `redscope compare`'s engine and
 * said in its words: the counts, the frontier's minimal winners new in HEAD
 * (the headline regression) and gone, the forest painted by change with a
 * legend in words, and the changed threat models, regressions first, each
 * with its task changes, both ASRs with their intervals and links into both
 * results. Everything read from the trees is a React text node.
 */
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ComparisonError, countsText, frontierQuestionText, paintChanges, type OpenedComparison } from '../../../core/compare'
import { PaintedForest } from '../../../components/sweep/PaintedForest'
import '../../../components/sweep/sweep.css'
import { compareQuery } from '../queries/compare'
import type { OpenSource } from '../sourcesStore'
import { ModelChangeList } from './ModelChangeList'

interface Props {
  readonly base: OpenSource
  readonly head: OpenSource
  readonly baseKey: string
  readonly headKey: string
}

export function ComparisonView({ base, head, baseKey, headKey }: Props) {
  const query = useQuery(compareQuery(base, head))
  if (query.error) {
    const e = query.error
    const title =
      e instanceof ComparisonError
        ? e.side === null
          ? 'BASE and HEAD cannot be compared'
          : `${e.side} cannot be compared`
        : 'The comparison failed'
    return (
      <div className="results-error" role="alert" data-testid="compare-error">
        <strong>{title}</strong>
        <pre>{e.message}</pre>
        <p>Both results stay open: choose another {e instanceof ComparisonError && e.side ? e.side : 'side'} above.</p>
      </div>
    )
  }
  if (!query.data)
    return (
      <p role="status">
        Reading BASE ({base.label}) and HEAD ({head.label}) whole…
      </p>
    )
  return (
    <Compared opened={query.data} baseKey={baseKey} headKey={headKey} onReload={() => void query.refetch()} reloading={query.isFetching} />
  )
}

function Compared({
  opened,
  baseKey,
  headKey,
  onReload,
  reloading,
}: {
  opened: OpenedComparison
  baseKey: string
  headKey: string
  onReload: () => void
  reloading: boolean
}) {
  const c = opened.comparison
  const paint = useMemo(() => (opened.forest ? paintChanges(opened.forest.forest, c.models) : null), [opened, c])
  return (
    <section className="compare" aria-label="Comparison">
      <p className="compare__summary" data-testid="compare-summary">
        {countsText(c.counts)}
      </p>
      <p>
        <button type="button" className="button--small" onClick={onReload} disabled={reloading}>
          {reloading ? 'Reading…' : 'Read both again'}
        </button>
      </p>
      <FrontierChanges opened={opened} />
      {paint && opened.forest ? (
        <>
          <PaintedForest
            forest={opened.forest.forest}
            painting={{ kind: 'change', paint }}
            testId="compare-tag"
            label="Forest painted by what changed from BASE to HEAD"
          />
          <p className="results-note">The forest of {opened.forest.from}.</p>
        </>
      ) : (
        <p className="results-note" data-testid="compare-no-forest">
          Neither result records its forest (no sweep.json, no domain.json): nothing to paint; the list below says what changed.
        </p>
      )}
      <ModelChangeList comparison={c} baseKey={baseKey} headKey={headKey} />
    </section>
  )
}

function FrontierChanges({ opened }: { opened: OpenedComparison }) {
  const frontier = opened.comparison.frontier
  if (frontier === null) {
    const one = opened.base.frontier ? 'BASE' : opened.head.frontier ? 'HEAD' : null
    return one ? (
      <p className="results-note" data-testid="compare-frontier-note">
        Only {one} holds a frontier.json: no frontier to compare.
      </p>
    ) : null
  }
  const incomplete = [opened.base.frontier?.complete ? null : 'BASE', opened.head.frontier?.complete ? null : 'HEAD'].filter(
    (x) => x !== null,
  )
  return (
    <section className="compare-frontier" aria-label="Frontier changes">
      <h3>The frontier: minimal winning threat models</h3>
      {incomplete.length > 0 && (
        <p className="results-note">The frontier search of {incomplete.join(' and ')} did not finish: what it lists is what it found.</p>
      )}
      <ul>
        {frontier.map((f) => {
          const q = frontierQuestionText(f.question)
          if (f.newInHead.length === 0 && f.goneFromHead.length === 0)
            return (
              <li key={f.question} data-testid="frontier-unchanged">
                {q}: unchanged
              </li>
            )
          return [
            ...f.newInHead.map((w) => (
              <li key={`${f.question}+${w.key}`} className="compare-frontier__new" data-testid="frontier-new">
                <strong>{q}: new in HEAD</strong> (a weaker attacker may now win): {w.words}
              </li>
            )),
            ...f.goneFromHead.map((w) => (
              <li key={`${f.question}-${w.key}`} className="compare-frontier__gone" data-testid="frontier-gone">
                {q}: gone from HEAD: {w.words}
              </li>
            )),
          ]
        })}
      </ul>
    </section>
  )
}
