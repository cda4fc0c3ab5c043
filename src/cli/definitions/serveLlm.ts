import { defineCommand, type OptionsSpec } from '../command'

export const DEFAULT_LLM_PORT = 8808
export const DEFAULT_LLM_MODEL = 'smollm2'
export const DEFAULT_LLM_THREADS = 1
export const DEFAULT_LLM_CONTEXT = 2048
export const DEFAULT_LLM_CONCURRENCY = 2
export const DEFAULT_LLM_QUEUE = 32

const MODEL = 'Model'
const SERVER = 'Server'

export const serveLlmOptions = {
  model: {
    type: 'string',
    value: 'NAME|PATH',
    group: MODEL,
    description: `a pulled model's name (\`redscope models list\`) or a GGUF file (default ${DEFAULT_LLM_MODEL})`,
  },
  threads: {
    type: 'string',
    value: 'N',
    group: MODEL,
    description: `CPU threads that evaluate the model (default ${DEFAULT_LLM_THREADS}: see below)`,
  },
  context: {
    type: 'string',
    value: 'TOKENS',
    group: MODEL,
    description: `tokens each session holds, prompt and answer together (default ${DEFAULT_LLM_CONTEXT})`,
  },
  concurrency: {
    type: 'string',
    value: 'N',
    group: MODEL,
    description: `requests answered at once; later ones wait in arrival order (default ${DEFAULT_LLM_CONCURRENCY})`,
  },
  queue: {
    type: 'string',
    value: 'N',
    group: MODEL,
    description: `requests that may wait; beyond, 503 with Retry-After (default ${DEFAULT_LLM_QUEUE})`,
  },
  'max-tokens': {
    type: 'string',
    value: 'N',
    group: MODEL,
    description: 'the most tokens any answer gets, whatever the request asks (default: what the context leaves)',
  },
  seed: {
    type: 'string',
    value: 'N',
    group: MODEL,
    description:
      'a reproducible run: a request without its own seed gets one derived from N and the request (default: a fresh random seed per request)',
  },
  port: { type: 'string', value: 'N', group: SERVER, description: `port (default ${DEFAULT_LLM_PORT}; 0 for any free port)` },
  host: {
    type: 'string',
    value: 'H',
    group: SERVER,
    description: 'address to listen on (default 127.0.0.1); any other than loopback needs a token',
  },
  token: {
    type: 'string',
    value: 'T',
    group: SERVER,
    description: 'require this bearer token, which OpenAI clients send as their API key (default: $REDSCOPE_LLM_TOKEN); never printed',
  },
  'allow-origin': {
    type: 'string',
    multiple: true,
    value: 'O',
    group: SERVER,
    description: 'browser origins allowed by CORS (default: loopback origins, where the app runs)',
  },
  'allow-host': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    group: SERVER,
    description: 'Host header names accepted besides loopback ones (.suffix for a domain and its subdomains)',
  },
  quiet: { type: 'boolean', group: SERVER, description: 'no line per request on stderr' },
} as const satisfies OptionsSpec

export const serveLlm = defineCommand({
  name: 'serve-llm',
  summary: 'a local model behind an OpenAI-compatible API (no key, no network): for the LLM attacker, judge and targets',
  synopsis: '',
  positionals: { min: 0, max: 0 },
  options: serveLlmOptions,
  description: [
    'Serves POST /v1/chat/completions (JSON with usage, or server-sent events with "stream": true), GET /v1/models and ' +
      "GET /health until Ctrl-C (or SIGTERM). Any OpenAI-compatible client works with the printed base URL: redscope's LLM " +
      'attacker and judge, the openai SDKs, litellm (`api_base`, model `openai/<any name>`). Requests may set temperature ' +
      '(default 1, as OpenAI), top_p, max_tokens, stop, seed, frequency/presence penalties between 0 and 1, and a JSON ' +
      "response_format (json_object, or json_schema: the answer is held to the schema as it is sampled); the answer's " +
      'seed comes back in the x-redscope-seed header. See docs/local-model.md.',
    `Get the model first with \`redscope models pull ${DEFAULT_LLM_MODEL}\` (a 98 MB GGUF, into $REDSCOPE_MODELS, default ` +
      '~/.cache/redscope/models). The model runs on the CPU through node-llama-cpp, an optional dependency that `npm ci` installs.',
    `--threads defaults to ${DEFAULT_LLM_THREADS}: llama.cpp's threads wait for each other by spinning, so on a machine ` +
      'with few cores, or busy with other work, more threads are slower, not faster (on a busy 2-core machine, 2 threads ' +
      'answered 10 times slower than 1, at 14 times the CPU per token). Raise it on a quiet machine with cores to spare, ' +
      'and measure: `npm run bench -- llm`. ' +
      'Concurrent requests share the threads: they are answered together, each more slowly.',
  ],
  examples: [
    ['the pinned SmolLM2 at http://127.0.0.1:8808/v1', `redscope models pull ${DEFAULT_LLM_MODEL} && redscope serve-llm`],
    ['a reproducible run on any free port', 'redscope serve-llm --seed 7 --port 0'],
    ['any GGUF file, four requests at once', 'redscope serve-llm --model ./qwen2.5-0.5b-instruct-q4_k_m.gguf --concurrency 4'],
    [
      'ask it from the shell',
      'curl -s http://127.0.0.1:8808/v1/chat/completions -H \'Content-Type: application/json\' -d \'{"messages":[{"role":"user","content":"Hi"}],"max_tokens":20}\'',
    ],
  ],
  load: async () => (await import('../commands/serveLlm')).serveLlmCommand,
})
