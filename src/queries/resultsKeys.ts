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
  trajectory: (source: string, taskDir: string, run: number, view: 'full' | 'attacker') =>
    ['results', source, 'trajectory', taskDir, run, view] as const,
}
