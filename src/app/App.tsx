import { useMemo } from 'react'
import { buildDomain, CHATBOT_FOREST, countCombinations } from '../core/tags'
import { ForestCanvas } from '../features/designer/ForestCanvas'

export function App() {
  const count = useMemo(() => countCombinations(buildDomain(CHATBOT_FOREST)), [])
  return (
    <div className="app">
      <header className="app__header">
        <span className="app__subtitle">superred chatbot forest · {count.toString()} distinct threat models</span>
      </header>
      <main className="app__main">
        <ForestCanvas forest={CHATBOT_FOREST} />
      </main>
    </div>
  )
}
