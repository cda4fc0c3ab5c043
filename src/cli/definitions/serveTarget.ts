import { defineCommand, type OptionsSpec } from '../command'
import { REFERENCE_TARGET_NAMES } from '../../reference-targets/names'

export const DEFAULT_TARGET_PORT = 8801

export const serveTargetOptions = {
  port: { type: 'string', value: 'N', description: `port (default ${DEFAULT_TARGET_PORT}; 0 for any free port)` },
  host: { type: 'string', value: 'H', description: 'address to listen on (default 127.0.0.1); any other than loopback needs a token' },
  'allow-host': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    description: 'Host header names accepted besides loopback ones (.suffix for a domain and its subdomains)',
  },
  concurrency: { type: 'string', value: 'N', description: 'sessions open at once; more wait on 503 capacity (default 8)' },
  token: { type: 'string', value: 'T', description: 'require this bearer token (default: $REDSCOPE_TARGET_TOKEN); never printed' },
  'allow-origin': {
    type: 'string',
    multiple: true,
    value: 'O',
    description: 'browser origins allowed by CORS (default: loopback origins)',
  },
  'idle-timeout': { type: 'string', value: 'S', description: 'end a session idle for S seconds' },
  'think-ms': {
    type: 'string',
    value: 'MS',
    description:
      "pause before each step, as a model thinking (default: $REDSCOPE_THINK_MS, else 0: answers at once; the app's live view paces a demo run itself)",
  },
  seed: {
    type: 'string',
    value: 'N',
    description: 'stochastic only: the seed of its draws (default 1); the k-th run of a threat model draws the same number for a seed',
  },
  'weaken-defence': {
    type: 'string',
    value: 'D',
    description: `assistant only: serve a regressed build, where a session set to defence D (delimiters, keyword_filter, strict_filter) runs the one weaker; for trying \`redscope compare\``,
  },
  llm: {
    type: 'string',
    value: 'URL',
    description:
      "a model writes the replies instead of the deterministic policy: an OpenAI-compatible base URL, e.g. `redscope serve-llm`'s http://127.0.0.1:8808/v1",
  },
  'llm-model': {
    type: 'string',
    value: 'M',
    description: 'the model --llm names in its requests (default: the first one its GET /models lists)',
  },
} as const satisfies OptionsSpec

export const serveTarget = defineCommand({
  name: 'serve-target',
  summary: `a keyless reference target (${REFERENCE_TARGET_NAMES.join(', ')}) over the Target-over-HTTP protocol`,
  synopsis: REFERENCE_TARGET_NAMES.join('|'),
  positionals: { min: 1, max: 1 },
  options: serveTargetOptions,
  description: [
    'Serves until Ctrl-C (or SIGTERM). Needs no API key; see docs/targets-claims-attackers.md. assistant and chatbot are ' +
      'deterministic; stochastic obeys an injection by chance, with odds known per surface written (src/reference-targets/stochastic/odds.ts), ' +
      'drawn by --seed: the reference for `redscope frontier --confidence` (docs/frontier.md).',
    'With --llm URL, every session starts on that model (its configs policy_model and policy_base_url set, which a ' +
      "claim's task may override; `policy_model=` empty is the deterministic policy again): a real, stochastic target. " +
      'The key sent to it is $OPENAI_API_KEY only when URL is $OPENAI_BASE_URL (a local server needs none). See docs/local-model.md.',
    'In a cluster (docs/scale-out.md), listen on every address with a token, and accept the names clients use: ' +
      'requests whose Host header is not loopback or one of --allow-host are refused (against DNS rebinding).',
  ],
  examples: [
    ['the assistant with its inbox, calendar, drive and bank account', 'redscope serve-target assistant'],
    ['the guarded chatbot on any free port, with a token', 'REDSCOPE_TARGET_TOKEN=s3cret redscope serve-target chatbot --port 0'],
    ['the assistant at a watchable pace, for a demo from another tool', 'redscope serve-target assistant --think-ms 800'],
    [
      "the assistant as a build whose strict filter regressed (compare its results with a normal build's)",
      'redscope serve-target assistant --weaken-defence strict_filter',
    ],
    ['the noisy refund agent, seeded, for a frontier search with a confidence', 'redscope serve-target stochastic --seed 7'],
    [
      'the chatbot on the local model (redscope serve-llm in another shell)',
      'redscope serve-target chatbot --llm http://127.0.0.1:8808/v1',
    ],
    [
      'one replica of a StatefulSet behind the headless Service redscope-target',
      'REDSCOPE_TARGET_TOKEN=... redscope serve-target assistant --host 0.0.0.0 --allow-host .redscope-target',
    ],
  ],
  load: async () => (await import('../commands/serveTarget')).serveTargetCommand,
})
