/** Every results query is keyed by source and path, so that reopening a source invalidates exactly its entries. */
export const resultsKeys = {
  source: (source: string) => ['results', source] as const,
  experiments: (source: string) => ['results', source, 'experiments'] as const,
  experiment: (source: string, dir: string) => ['results', source, 'experiment', dir] as const,
  task: (source: string, taskDir: string) => ['results', source, 'task', taskDir] as const,
  trajectory: (source: string, taskDir: string, run: number, view: 'full' | 'attacker') =>
    ['results', source, 'trajectory', taskDir, run, view] as const,
}
