/**
 * The experiment's summary by framework (src/core/compliance), derived here from what the page already read:
 * the forest's tag references (domain.json, or the forest the user attached) and each task's references
 * (task_configs.json). Shown only when something carries a reference; the static bundle shows it too.
 */
import { COMPLIANCE_ABOUT, complianceSummary, referenceVerdictWords, threatModelWords } from '../../../core/compliance'
import type { ManifestTaskJson } from '../../../core/results/format'
import type { Forest } from '../../../core/tags'
import type { z } from 'zod'

interface Props {
  readonly forest: Forest | null
  readonly label: string
  readonly scope: readonly string[]
  readonly readOnly: readonly string[]
  readonly tasks: ReadonlyArray<z.infer<typeof ManifestTaskJson>>
  readonly taskReferences: ReadonlyMap<number, readonly string[]>
}

export function CompliancePanel({ forest, label, scope, readOnly, tasks, taskReferences }: Props) {
  const threatModel = threatModelWords(label, scope, readOnly)
  const summary = complianceSummary(
    forest,
    tasks.map((t) => ({
      threatModel,
      scope,
      readOnly,
      taskReferences: taskReferences.get(t.index) ?? [],
      breached: t.success,
      runs: t.n_runs,
    })),
  )
  if (summary.frameworks.length === 0 && summary.notExercised.length === 0) return null
  return (
    <section className="compliance-panel" aria-label="By framework" data-testid="compliance-panel">
      <h3>By framework</h3>
      <p className="muted">{COMPLIANCE_ABOUT}</p>
      {summary.frameworks.map((f) => (
        <div key={f.framework?.id ?? 'unknown'}>
          <h4>{f.framework?.title ?? "References not in this version's list"}</h4>
          {f.framework && (
            <p className="muted">
              List from {f.framework.source}, taken {f.framework.taken}.
            </p>
          )}
          <table className="results-table">
            <thead>
              <tr>
                <th>id</th>
                <th>title</th>
                <th>outcome</th>
                <th>under which threat models</th>
              </tr>
            </thead>
            <tbody>
              {f.references.map((v) => {
                const words = referenceVerdictWords(v)
                return (
                  <tr key={v.id} data-reference={v.id}>
                    <td>
                      <code>{v.id}</code>
                    </td>
                    <td>{v.title}</td>
                    <td>{v.breached.length > 0 ? 'breached' : 'not broken'}</td>
                    <td>
                      {[...words.breached, ...words.held].map((w) => (
                        <div key={w}>{w}</div>
                      ))}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      ))}
      {summary.notExercised.length > 0 && (
        <p className="muted">
          On the forest but not exercised by this experiment (its threat model grants none of their tags): {summary.notExercised.join(', ')}
          .
        </p>
      )}
    </section>
  )
}
