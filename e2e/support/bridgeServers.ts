/**
 * Real superred targets for the browser tests, each in its own Python process from the repo's .venv: the
 * deterministic fake LLM on loopback (no key; follows an injected instruction when it sees one), superred's
 * ChatbotTarget and AgentDojoTarget behind `redscope-bridge serve`, each with a superred claim served beside
 * it. Every process is stopped by the spec that started it (close()).
 */
import { delimiter, join } from 'node:path'
import { REPO_ROOT, spawnBridge, spawnVenv, type SpawnedServer } from '../../src/testing/pythonBridge'

/** Where the claims and target factories the specs serve are found (python/examples and the e2e fixtures). */
const PYTHONPATH = [join(REPO_ROOT, 'python', 'examples'), join(REPO_ROOT, 'e2e', 'fixtures', 'bridge')].join(delimiter)

export function startFakeLlm(): Promise<SpawnedServer> {
  return spawnVenv('python', ['-m', 'redscope_bridge.testing.fake_llm', '--port', '0'], /fake LLM at (http:\/\/\S+)/)
}

/**
 * superred's ChatbotTarget (python/examples' factory: its key from an environment variable, here a dummy the
 * fake LLM ignores) with e2e/fixtures/bridge/chatbot_claims.py's claim: the demo secret leak (trigger word
 * "spaghetti") and a task that does not apply.
 */
export function startBridgedChatbot(llmUrl: string): Promise<SpawnedServer> {
  const kwargs = JSON.stringify({ model: 'openai/gpt-4o-mini', api_base: llmUrl, concurrency: 2 })
  return spawnBridge('chatbot_target_factory:chatbot', ['--kwargs', kwargs, '--claim', 'chatbot_claims:claim', '--name', 'chatbot'], {
    OPENAI_API_KEY: 'sk-e2e-dummy',
    PYTHONPATH,
  })
}

/**
 * The same ChatbotTarget with chatbot_claims.py's PAIR claim, and superred's own PAIR optimizer served beside it
 * (one stream, two iterations), its attacker model the fake LLM too: the bridge's own LLM settings.
 */
export function startBridgedChatbotWithPair(llmUrl: string): Promise<SpawnedServer> {
  const kwargs = JSON.stringify({ model: 'openai/gpt-4o-mini', api_base: llmUrl, concurrency: 2 })
  return spawnBridge(
    'chatbot_target_factory:chatbot',
    [
      '--kwargs',
      kwargs,
      '--claim',
      'chatbot_claims:pair_claim',
      '--name',
      'chatbot',
      '--optimizer',
      'pair_optimizer:PAIROptimizer',
      '--optimizer-kwargs',
      JSON.stringify({ n_streams: 1, n_iterations: 3 }),
      '--llm-model',
      'openai/gpt-4o-mini',
      '--llm-api-base',
      llmUrl,
    ],
    { OPENAI_API_KEY: 'sk-e2e-dummy', PYTHONPATH },
  )
}

/** AgentDojoTarget (32 tags) with superred-claim-agentdojo's injection tasks for `pairs` ([suite, user task, injection task]). */
export function startBridgedAgentDojo(llmUrl: string, pairs: ReadonlyArray<readonly [string, string, string]>): Promise<SpawnedServer> {
  const kwargs = JSON.stringify({ pipeline_model: 'openai/gpt-4o-mini', api_base: llmUrl, api_key: 'sk-e2e-dummy' })
  return spawnBridge(
    'agentdojo_target:AgentDojoTarget',
    [
      '--kwargs',
      kwargs,
      '--name',
      'agentdojo',
      '--concurrency',
      '4',
      '--claim',
      'agentdojo_claim:agentdojo_layer1_claim',
      '--claim-kwargs',
      JSON.stringify({ pairs }),
    ],
    { PYTHONPATH },
  )
}
