/** Every results query is keyed by source and path, so that reopening a source invalidates exactly its entries. */
export const resultsKeys = {
  all: ['results'] as const,
  source: (source: string) => ['results', source] as const,
  experiments: (source: string) => ['results', source, 'experiments'] as const,
  sweep: (source: string) => ['results', source, 'sweep'] as const,
  /** The run console's sweep records, listed beside this browser's runs. */
  browserSweeps: (source: string) => ['results', source, 'sweeps'] as const,
  /** The run console's kept frontier searches (lib/frontierRecords.ts), listed beside this browser's runs. */
  browserFrontiers: (source: string) => ['results', source, 'frontiers'] as const,
  sweepManifests: (source: string) => ['results', source, 'sweep', 'manifests'] as const,
  experiment: (source: string, dir: string) => ['results', source, 'experiment', dir] as const,
  task: (source: string, taskDir: string) => ['results', source, 'task', taskDir] as const,
  /** Two results compared: under BASE's key, so reopening BASE drops it; HEAD's reopening drops it by `isCompareOf`. */
  compare: (base: string, head: string) => ['results', base, 'compare', head] as const,
  trajectory: (source: string, taskDir: string, run: number, view: 'full' | 'attacker') =>
    ['results', source, 'trajectory', taskDir, run, view] as const,
}

/** Whether a query key is a comparison that reads `source` on either side. */
export const isCompareOf = (key: readonly unknown[], source: string) =>
  key[0] === 'results' && key[2] === 'compare' && (key[1] === source || key[3] === source)
