import { useQuery } from '@tanstack/react-query'
import type { ExperimentRecord } from '../../../core/results'
import type { Forest } from '../../../core/tags'
import { attachedForestQuery } from '../queries/annotations'

export interface ExperimentForest {
  readonly forest: Forest | null
  /** Where it came from: the experiment's own domain.json wins over one the user attached. */
  readonly origin: 'domain.json' | 'attached' | 'none'
  readonly label: string
}

export function useExperimentForest(experiment: ExperimentRecord | undefined, dir: string): ExperimentForest {
  const attached = useQuery(attachedForestQuery(dir)).data ?? null
  if (experiment?.domain) return { forest: experiment.domain, origin: 'domain.json', label: 'domain.json' }
  if (attached) return { forest: attached.forest, origin: 'attached', label: attached.label }
  return { forest: null, origin: 'none', label: '' }
}
