import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

export interface AppRoute {
  /** wouter path pattern; `nest` routes own everything below their path. */
  path: string
  label: string
  nest?: boolean
  component: LazyExoticComponent<ComponentType>
}

/**
 * The app's sections. Each is loaded on first visit, so that the designer's
 * first paint does not pay for the run console's LLM SDK or the viewer.
 */
export const ROUTES: readonly AppRoute[] = [
  { path: '/', label: 'Design', component: lazy(() => import('./App').then((m) => ({ default: m.App }))) },
  { path: '/run', label: 'Run', nest: true, component: lazy(() => import('./RunRoute').then((m) => ({ default: m.RunRoute }))) },
  {
    path: '/results',
    label: 'Results',
    nest: true,
    component: lazy(() => import('../features/results/ResultsSection').then((m) => ({ default: m.ResultsSection }))),
  },
]
