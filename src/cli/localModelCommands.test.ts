// @vitest-environment node
/**
 * `redscope models` and `redscope serve-llm` up to the point where a model
 * would load: their usage errors and the messages that say what to do. The
 * real model is served in src/servers/llm/realModel.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { explainImportFailure, LLAMA_CPP_VERSION } from '../servers/llm/llamaEngine'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'redscope-models-cli-'))
const saved = process.env.REDSCOPE_MODELS
beforeAll(() => {
  process.env.REDSCOPE_MODELS = dir
})
afterAll(() => {
  if (saved === undefined) delete process.env.REDSCOPE_MODELS
  else process.env.REDSCOPE_MODELS = saved
  rmSync(dir, { recursive: true, force: true })
})

async function run(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

describe('redscope models', () => {
  it('list shows the folder and what is (not) pulled there', async () => {
    writeFileSync(join(dir, 'mine.gguf'), 'GGUF and more')
    const r = await run('models', 'list')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`models in ${dir}:\n`)
    expect(r.stdout).toMatch(/smollm2 +SmolLM2-135M-Instruct\.Q4_1\.gguf +- +not pulled: redscope models pull smollm2\n/)
    expect(r.stdout).toMatch(/\(by path\) +mine\.gguf +0\.0 MB +serve-llm --model PATH\n/)
  })

  it('path of a model not pulled: exit 1, and how to pull it', async () => {
    const r = await run('models', 'path', 'smollm2')
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`redscope models: smollm2 is not in the model cache (${dir}): run \`redscope models pull smollm2\` first\n`)
  })

  it.each([
    [
      ['models', 'pull', 'llama-70b'],
      "redscope models: no pinned model 'llama-70b' (known: smollm2); serve-llm --model also takes a GGUF file's path\n",
    ],
    [['models', 'pull'], 'redscope models: models pull needs a model name (smollm2)\n'],
    [['models', 'fetch', 'smollm2'], "redscope models: unknown action 'fetch' (models pull NAME | list | path NAME)\n"],
    [['models', 'list', 'smollm2'], "redscope models: models list takes no name (got 'smollm2')\n"],
    [['models', 'pull', 'smollm2', '--python', 'python3', '--no-pip'], 'redscope models: give --python or --no-pip, not both\n'],
  ])('%j is a usage error', async (argv, message) => {
    const r = await run(...argv)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(message)
  })
})

describe('redscope serve-llm, before a model loads', () => {
  it('without the pulled model: exit 2, and the command that pulls it', async () => {
    const r = await run('serve-llm', '--port', '0')
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`redscope serve-llm: smollm2 is not in the model cache (${dir}): run \`redscope models pull smollm2\` first\n`)
  })

  it('a --model that is not a GGUF file is named', async () => {
    const notes = join(dir, 'notes.txt')
    writeFileSync(notes, 'hello')
    const r = await run('serve-llm', '--model', notes)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`redscope serve-llm: --model ${notes}: ${notes} is not a GGUF file (it does not start with "GGUF")\n`)
  })

  it.each([
    [
      ['--host', '0.0.0.0'],
      '--host 0.0.0.0 listens beyond this machine: give a token (--token T or $REDSCOPE_LLM_TOKEN), which clients send as their API key',
    ],
    [['--threads', '0'], '--threads 0: must be an integer of at least 1'],
    [['--concurrency', '1.5'], '--concurrency 1.5: must be an integer from 1 to 64'],
    [['--context', '10'], '--context 10: must be a number of tokens of at least 64'],
    [['--queue', '-1'], '--queue -1: must be an integer of at least 0'],
    [['--seed', 'abc'], '--seed abc: must be an integer'],
    [['--port', '70000'], '--port 70000: must be a port number (0 for any free port)'],
  ])('%j is a usage error', async (argv, message) => {
    const r = await run('serve-llm', ...argv)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`redscope serve-llm: ${message}\n`)
  })

  it('--help says why one thread is the default', async () => {
    const r = await run('serve-llm', '--help')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('--threads N')
    expect(r.stdout).toMatch(/spinning/)
    expect(r.stdout).toContain('redscope models pull smollm2')
  })

  it('without node-llama-cpp installed, the message says how to install it', async () => {
    // A package that is not installed fails as node-llama-cpp would if `npm ci` had skipped it.
    const failure = await import(/* @vite-ignore */ ['node-llama-cpp', 'not-installed'].join('-')).then(
      () => null,
      (e: unknown) => e,
    )
    const e = explainImportFailure(failure)
    expect(e.message).toBe(
      'serve-llm runs models with node-llama-cpp, an optional dependency that is not installed here. ' +
        'In the redscope folder, run `npm ci` (it installs it, about 85 MB, unless optional dependencies are omitted) ' +
        `or \`npm install --no-save node-llama-cpp@${LLAMA_CPP_VERSION}\`; see docs/local-model.md`,
    )
  })
})
