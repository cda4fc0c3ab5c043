import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@xyflow/react/dist/style.css'
import './app.css'
import { queryClient } from '../queries/queryClient'
import { Shell } from './Shell'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* One query client for every section: what one view learns (a run landed) the others see. */}
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  </StrictMode>,
)
