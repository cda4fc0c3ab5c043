/**
 * The changed threat models in the comparison's order (regressions first),
 * each with what changed per task, BASE's and HEAD's ASR with their 95%
 * intervals and the interval of the change (the CLI's words), and links to
 * the experiment and task pages of each side. Unchanged ones are counted and
 * listed folded.
 */
import { Link } from 'wouter'
import {
  asrChangeText,
  CHANGE_WORDS,
  outcomeText,
  type Comparison,
  type ModelChange,
  type TaskChange,
  type TaskChangeKind,
} from '../../../core/compare'
import { plural } from '../../../lib/plural'
import { experimentHref, taskHref, taskSegment } from '../paths'

/** Rendered at most: a sweep of thousands compared lists its first changes; `redscope compare --json` has every one. */
const MAX_MODELS = 200

const PRESENCE = { both: null, only_base: 'only in BASE', only_head: 'only in HEAD' } as const

/** The threat model's most pressing change, as the comparison ranks them. */
function headline(m: ModelChange): TaskChangeKind {
  for (const k of ['regression', 'fix', 'only_head', 'only_base', 'unmeasured'] as const) if (m.tasks.some((t) => t.change === k)) return k
  return 'unchanged'
}

const BADGE: Record<Exclude<TaskChangeKind, 'unchanged'>, (n: number) => string> = {
  regression: (n) => `${plural(n, 'regression')} (held→breached)`,
  fix: (n) => `${plural(n, 'fix', 'fixes')} (breached→held)`,
  only_base: (n) => `${plural(n, 'task')} only in BASE`,
  only_head: (n) => `${plural(n, 'task')} only in HEAD`,
  unmeasured: (n) => `${plural(n, 'task')} not measured on a side`,
}

const changed = (m: ModelChange) => m.presence !== 'both' || m.tasks.some((t) => t.change !== 'unchanged')

/** An experiment folder the viewer can open on its own (a frontier-only side names run folders deeper down). */
const linkable = (dir: string | null): dir is string => dir !== null && dir !== '' && !dir.includes('/')

export function ModelChangeList({ comparison, baseKey, headKey }: { comparison: Comparison; baseKey: string; headKey: string }) {
  const list = comparison.models.filter(changed)
  const same = comparison.models.filter((m) => !changed(m))
  return (
    <section className="compare-models" aria-label="Changed threat models">
      <h3>{list.length === 0 ? 'No threat model changed' : `${plural(list.length, 'threat model')} changed`}</h3>
      <ol className="compare-models__list">
        {list.slice(0, MAX_MODELS).map((m) => (
          <ModelItem key={m.key} m={m} baseKey={baseKey} headKey={headKey} />
        ))}
      </ol>
      {list.length > MAX_MODELS && (
        <p className="results-note">
          … and {list.length - MAX_MODELS} more: <code>redscope compare BASE HEAD --json</code> lists every one.
        </p>
      )}
      {same.length > 0 && (
        <details className="compare-models__same">
          <summary>{plural(same.length, 'threat model')} unchanged</summary>
          <ul>
            {same.slice(0, MAX_MODELS).map((m) => (
              <li key={m.key}>
                {m.label}: {m.headAsr?.words ?? ''}
              </li>
            ))}
          </ul>
          {same.length > MAX_MODELS && <p className="results-note">… and {same.length - MAX_MODELS} more.</p>}
        </details>
      )}
    </section>
  )
}

function ModelItem({ m, baseKey, headKey }: { m: ModelChange; baseKey: string; headKey: string }) {
  const kind = headline(m)
  const counts = (['regression', 'fix', 'only_base', 'only_head', 'unmeasured'] as const)
    .map((k) => [k, m.tasks.filter((t) => t.change === k).length] as const)
    .filter(([, n]) => n > 0)
  const asrChange = asrChangeText(m)
  const tasks = m.tasks.filter((t) => t.change !== 'unchanged')
  const unchangedTasks = m.tasks.length - tasks.length
  return (
    <li
      className={`compare-model compare-model--${kind}`}
      data-testid="compare-model"
      data-change={kind}
      data-scope={[...m.scope].sort().join(',')}
      data-read-only={[...m.readOnly].sort().join(',')}
    >
      <div className="compare-model__head">
        <span className={`compare-badge compare-badge--${kind}`}>
          {counts.map(([k, n]) => BADGE[k](n)).join(' · ') || PRESENCE[m.presence] || 'unchanged'}
        </span>
        <strong className="compare-model__label">{m.label}</strong>
        {PRESENCE[m.presence] && <span className="compare-model__presence">({PRESENCE[m.presence]})</span>}
      </div>
      <p className="compare-model__asr" data-testid="compare-asr">
        BASE: {m.baseAsr?.words ?? 'not in BASE'} → HEAD: {m.headAsr?.words ?? 'not in HEAD'}
        {asrChange !== null && <>; change {asrChange}</>}
      </p>
      <p className="compare-model__links">
        {linkable(m.baseDir) && <Link href={experimentHref(baseKey, m.baseDir)}>BASE experiment</Link>}
        {linkable(m.headDir) && <Link href={experimentHref(headKey, m.headDir)}>HEAD experiment</Link>}
      </p>
      {tasks.length > 0 && (
        <table className="results-table compare-tasks">
          <thead>
            <tr>
              <th>change</th>
              <th>task</th>
              <th>BASE</th>
              <th>HEAD</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={t.key} data-testid="compare-task" data-change={t.change}>
                <td className={`compare-change compare-change--${t.change}`}>{CHANGE_WORDS[t.change]}</td>
                <td className="compare-tasks__goal">{t.key}</td>
                <td>
                  <TaskCell t={t} side="base" dir={m.baseDir} src={baseKey} />
                </td>
                <td>
                  <TaskCell t={t} side="head" dir={m.headDir} src={headKey} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {unchangedTasks > 0 && <p className="results-note compare-model__same">{plural(unchangedTasks, 'task')} unchanged.</p>}
    </li>
  )
}

function TaskCell({ t, side, dir, src }: { t: TaskChange; side: 'base' | 'head'; dir: string | null; src: string }) {
  const text = outcomeText(t, side)
  const taskDir = t[side]?.dir ?? null
  if (!linkable(dir) || taskDir === null) return <>{text}</>
  return <Link href={taskHref(src, dir, taskSegment(taskDir))}>{text}</Link>
}
