import { Panel } from '@xyflow/react'
import { addRoot } from './designerActions'
import { loadTemplate } from './templates'
import { useFitView } from './useFitView'

/** What an empty forest offers: a first root, or one of the guide's forests. */
export function EmptyForest() {
  const fit = useFitView()
  return (
    <Panel position="top-center" className="empty-forest">
      <p className="empty-forest__title">This forest is empty.</p>
      <p>Start with a root capability (an independent channel such as <code>user</code>), or from one of the guide's forests.</p>
      <div className="empty-forest__actions">
        <button type="button" className="btn btn--primary" onClick={() => addRoot()}>Add a root tag</button>
        <button type="button" className="btn" onClick={() => { loadTemplate('chatbot'); fit() }}>Chatbot template</button>
        <button type="button" className="btn" onClick={() => { loadTemplate('agentdojo'); fit() }}>AgentDojo template</button>
      </div>
    </Panel>
  )
}
