import { useDesigner } from '../../stores/designerStore'
import { scopeFindingsOf, selectDoc } from '../../stores/selectors'
import { SEVERITY_WORD } from './labels'

/** The engine's scope validation, live: each finding in plain words, a click selects the tags involved. */
export function ScopeFindings() {
  const doc = useDesigner(selectDoc)
  const select = useDesigner((s) => s.select)
  const findings = scopeFindingsOf(doc)
  if (findings.length === 0) {
    return (
      <p className="ok" role="status">
        ✓ A clean threat model: superred would run it as you read it below.
      </p>
    )
  }
  return (
    <ul className="finding-list" aria-label="Scope findings" aria-live="polite">
      {findings.map((f, i) => (
        <li key={`${f.code}-${i}`} className={`finding finding--${f.severity}`} data-code={f.code}>
          <strong className="finding__kind">{SEVERITY_WORD[f.severity]}.</strong> {f.message}
          {f.tagIds.length > 0 ? (
            <>
              {' '}
              <button type="button" className="link finding__show" onClick={() => select(f.tagIds)}>
                Select the tags
              </button>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
