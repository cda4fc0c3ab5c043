import { Panel } from '@xyflow/react'
import { useState } from 'react'
import { addRoot } from './designerActions'
import { TargetUrlForm } from './TargetUrlForm'
import { loadTemplate } from './templates'
import { useFitView } from './useFitView'

/** What an empty forest offers: a first root, one of the guide's forests, or a running target's own forest. */
export function EmptyForest() {
  const fit = useFitView()
  const [byUrl, setByUrl] = useState(false)
  return (
    <Panel position="top-center" className="empty-forest">
      <p className="empty-forest__title">This forest is empty.</p>
      <p>
        Start with a root capability (an independent channel such as <code>user</code>), from one of the guide's forests, or from a running
        target's manifest.
      </p>
      <div className="empty-forest__actions">
        <button type="button" className="btn btn--primary" onClick={() => addRoot()}>
          Add a root tag
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            loadTemplate('chatbot')
            fit()
          }}
        >
          Chatbot template
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            loadTemplate('agentdojo')
            fit()
          }}
        >
          AgentDojo template
        </button>
        <button type="button" className="btn" aria-expanded={byUrl} onClick={() => setByUrl(!byUrl)}>
          Import from target URL
        </button>
      </div>
      {byUrl && <TargetUrlForm id="empty-forest-target-url" className="empty-forest__url" onDone={() => fit()} />}
    </Panel>
  )
}
