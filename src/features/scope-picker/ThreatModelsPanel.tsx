import { CombinationBrowser } from './CombinationList'
import { CompareView } from './CompareView'
import { PermalinkBox } from './PermalinkBox'
import { SavedModels } from './SavedModels'

/** Every threat model of the forest, the saved ones, a comparison, and a link to share. */
export function ThreatModelsPanel() {
  return (
    <section className="models-panel" aria-label="Threat models">
      <h3 className="panel__heading">Saved threat models</h3>
      <SavedModels />
      <h3 className="panel__heading">All distinct threat models</h3>
      <CombinationBrowser />
      <h3 className="panel__heading">Compare</h3>
      <CompareView />
      <h3 className="panel__heading">Share</h3>
      <PermalinkBox />
    </section>
  )
}
