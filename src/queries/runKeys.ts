/** The run console's query keys: shipped claims, and this browser's results and sweeps as the console lists them. */
export const runKeys = {
  claimsIndex: ['run', 'claims-index'] as const,
  claim: (file: string) => ['run', 'claim', file] as const,
  results: ['run', 'results'] as const,
  experiments: ['run', 'results', 'experiments'] as const,
  tasks: (dir: string) => ['run', 'results', 'tasks', dir] as const,
  sweeps: ['run', 'results', 'sweeps'] as const,
  sweep: (id: string) => ['run', 'results', 'sweep', id] as const,
}
