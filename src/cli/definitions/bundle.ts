import { defineCommand, type OptionsSpec } from '../command'

export const bundleOptions = {
  out: { type: 'string', value: 'OUT', description: 'the folder to write (new or empty, or an earlier bundle, which is replaced)' },
  title: { type: 'string', value: 'T', description: "the bundle's title, shown on every page (default: DIR's folder name)" },
  'no-redact': { type: 'boolean', description: 'copy the results as they are: do not mask secrets with the built-in rules' },
} as const satisfies OptionsSpec

export const bundle = defineCommand({
  name: 'bundle',
  summary: 'a results folder as a static site: the viewer and the data, to open from a file or put on any static host',
  synopsis: 'DIR',
  positionals: { min: 1, max: 1 },
  required: ['out'],
  options: bundleOptions,
  description: [
    'Writes OUT/index.html, the viewer (viewer.js, viewer.css) and the results as data scripts (data/). Open ' +
      'OUT/index.html from disk, or put OUT on GitHub Pages, an S3 bucket or any static server: no server of ours is ' +
      "needed. Every page has an address (index.html#/EXPERIMENT/TASK/RUN/STEP, #/sweep for a sweep's painted forest), " +
      'so a link to a step can be shared with the folder.',
    'Secrets are masked by the built-in redaction rules (API keys, bearer tokens, e-mail addresses, JWTs, vendor ' +
      'tokens, key=value secrets) in every value, key and folder name; --no-redact copies the results as they are. ' +
      "Patterns never catch every disguise: read what you share. The page runs under the app's content security policy " +
      'with no connection allowed, and shows every result as text.',
    'Only what the viewer reads is copied: JSON files, no dot-file, no symlink, no unfinished task folder, no ' +
      "experiment's previous_NN history. The app is built first when dist/ is missing or older than its sources.",
  ],
  examples: [
    ['a sweep, to open from disk', 'redscope bundle results/merged --out sweep-site && xdg-open sweep-site/index.html'],
    ['for a static host, with a title', 'redscope bundle superred-results --out public --title "Support agent, week 12"'],
  ],
  load: async () => (await import('../commands/bundle')).bundleCommand,
})
