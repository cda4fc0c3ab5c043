import { queryOptions } from '@tanstack/react-query'
import { readAttachedForest, readRunAnnotations, runKeyOf, type RunAddress } from '../annotations/annotationsDb'

export const annotationKeys = {
  run: (run: RunAddress) => ['annotations', 'run', runKeyOf(run)] as const,
  forest: (experiment: string) => ['annotations', 'forest', experiment] as const,
}

/** Notes and bookmarks of one run, from the viewer's IndexedDB. */
export function runAnnotationsQuery(run: RunAddress) {
  return queryOptions({ queryKey: annotationKeys.run(run), queryFn: () => readRunAnnotations(run), staleTime: Infinity })
}

/** The forest the user attached to a plain superred experiment, if any. */
export function attachedForestQuery(experiment: string) {
  return queryOptions({ queryKey: annotationKeys.forest(experiment), queryFn: () => readAttachedForest(experiment), staleTime: Infinity })
}
