import { AttackerReadingView } from './AttackerReadingView'
import { GrantSummary } from './GrantSummary'
import { Legend } from './Legend'
import { SaveModelForm } from './SaveModelForm'
import { ScopeFindings } from './ScopeFindings'
import { TargetSection } from './TargetSection'

/** The current threat model: grants, live validation, the attacker's reading, and what the optimizer gets. */
export function ScopePanel() {
  return (
    <section className="scope-panel" aria-label="Scope">
      <Legend />
      <h3 className="panel__heading">Granted</h3>
      <GrantSummary />
      <h3 className="panel__heading">Validation</h3>
      <ScopeFindings />
      <h3 className="panel__heading">As an attacker</h3>
      <AttackerReadingView />
      <h3 className="panel__heading">Offered to the optimizer</h3>
      <TargetSection />
      <SaveModelForm />
    </section>
  )
}
