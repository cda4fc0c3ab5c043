import { defineCommand, type OptionsSpec } from '../command'

export const DEFAULT_VIEW_PORT = 7575
export const DEFAULT_RESULTS_DIR = 'superred-results'

export const viewOptions = {
  port: {
    type: 'string',
    value: 'N',
    description: `port (default ${DEFAULT_VIEW_PORT}, or any free port when that one is taken; 0 for any free port)`,
  },
  host: { type: 'string', value: 'H', description: 'address to listen on (default 127.0.0.1); any other than loopback needs a token' },
  token: {
    type: 'string',
    value: 'T',
    description: 'require this token (default: $REDSCOPE_VIEW_TOKEN): the browser asks for it as a password; never printed',
  },
  'allow-host': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    description: 'Host header names accepted besides loopback ones (default with a token: any)',
  },
  'no-open': { type: 'boolean', description: 'print the address only; do not open a browser' },
  'no-results': { type: 'boolean', description: 'serve the app and the demo targets without a results folder (what `npm start` does)' },
} as const satisfies OptionsSpec

export const view = defineCommand({
  name: 'view',
  summary: 'serve the app and a results folder read-only, refreshing as it is written; opens the browser',
  synopsis: '[DIR]',
  positionals: { min: 0, max: 1 },
  options: viewOptions,
  description: [
    `DIR defaults to $SUPERRED_RESULTS_DIR, else ./${DEFAULT_RESULTS_DIR}. Trees written by redscope and by superred ` +
      '(schema 4 and 5) are read; a task that lands appears within two seconds, and an experiment still being written says so.',
    'Nothing outside DIR is served: paths with .. or dot-files, and symlinks that leave DIR, are refused. The production ' +
      'build of the app (dist/) is built first when it is missing or older than its sources. Serves until Ctrl-C (or SIGTERM).',
  ],
  examples: [
    ['the results of superred runs in ./superred-results', 'redscope view'],
    ['another folder, on any free port, without opening a browser', 'redscope view runs/ --port 0 --no-open'],
    ['for a colleague on the network (they type the token as the password)', 'REDSCOPE_VIEW_TOKEN=s3cret redscope view --host 0.0.0.0'],
  ],
  load: async () => (await import('../commands/view')).viewCommand,
})
