/**
 * `redscope serve-llm` (the real local model) called from the app's page in
 * Chromium, as the browser's LLM attacker calls a model: across origins,
 * with the openai SDK's headers, so through a real CORS preflight. A page of
 * an origin not allowed gets nothing, and the model never runs for it. And
 * the run console's demo switch: "Run the demo attack" with the demo chatbot
 * replying by the local model (the app's server calls it, not the page).
 * Last, everything that writes text is the model: the demo chatbot's replies,
 * and the page's LLM attacker and llm_judge.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { CliProcesses } from '../src/testing/cliProcesses'
import { localModelAvailable, startLocalLlm, type LocalLlm } from '../src/testing/localModel'
import { pickClaim, setField, taskStatuses, waitForState } from './runConsole/helpers'

const APP_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_APP_PORT ?? 4173)}`
const procs = new CliProcesses()
let llm: LocalLlm
let other: Server
let otherUrl: string

test.skip(!localModelAvailable(), 'SmolLM2 is not pulled (node bin/redscope.mjs models pull smollm2)')

test.beforeAll(async () => {
  test.setTimeout(180_000)
  // Only the app's origin: the page on `other` is then a foreign one.
  // Short answers: the demo chatbot asks for up to 96 tokens, seconds each on a busy CPU.
  llm = await startLocalLlm(procs, ['--allow-origin', APP_ORIGIN, '--max-tokens', '32'])
  // Another site on this machine: loopback, but not an origin serve-llm was told to allow.
  other = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>another site</title>')
  })
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`
})
test.afterAll(async () => {
  await procs.stopAll()
  await new Promise<void>((r) => (other ? other.close(() => r()) : r()))
})

/** In the page: what the browser's openai SDK sends with a chat completion (src/adapters/llm), and the answer as the page sees it. */
async function callFromPage({ baseURL, stream }: { baseURL: string; stream: boolean }) {
  const headers = {
    Authorization: 'Bearer no-key',
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Stainless-Lang': 'js',
    'X-Stainless-Package-Version': '6.49.0',
    'X-Stainless-OS': 'Unknown',
    'X-Stainless-Arch': 'unknown',
    'X-Stainless-Runtime': 'browser:chrome',
    'X-Stainless-Runtime-Version': '140.0.0',
    'X-Stainless-Retry-Count': '0',
    'X-Stainless-Timeout': '600',
  }
  try {
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'smollm2',
        messages: [{ role: 'user', content: 'Say hello.' }],
        max_tokens: 8,
        temperature: 0.8,
        seed: 4,
        stream,
      }),
    })
    return { status: res.status, seed: res.headers.get('x-redscope-seed'), body: await res.text(), error: null }
  } catch (e) {
    return { status: 0, seed: null, body: '', error: String(e) }
  }
}

const count = (re: RegExp) => (llm.process.stderr().match(re) ?? []).length
const posts = () => count(/^POST \/v1\/chat\/completions /gm)
const refusedPreflights = () => count(/^OPTIONS \/v1\/chat\/completions 204 preflight refused$/gm)

test("the app's page gets answers from serve-llm, plain and streamed, through the CORS preflight", async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  const plain = await page.evaluate(callFromPage, { baseURL: llm.baseURL, stream: false })
  expect(plain.error).toBeNull()
  expect(plain.status).toBe(200)
  // An exposed header: the page can read which seed its answer was sampled with.
  expect(plain.seed).toBe('4')
  const answer = JSON.parse(plain.body)
  expect(answer.usage.completion_tokens).toBeGreaterThan(0)
  const streamed = await page.evaluate(callFromPage, { baseURL: llm.baseURL, stream: true })
  expect(streamed.status).toBe(200)
  const events = streamed.body.split('\n\n').filter((e) => e !== '')
  expect(events.at(-1)).toBe('data: [DONE]')
  const text = events
    .slice(0, -1)
    .map((e) => JSON.parse(e.slice('data: '.length)).choices[0]?.delta?.content ?? '')
    .join('')
  // Same seed, same request: the stream spells the same answer.
  expect(text).toBe(answer.choices[0].message.content)
})

test('a page of another origin is refused by the browser, and the model never runs for it', async ({ page }) => {
  await page.goto(otherUrl)
  const before = posts()
  const refusedBefore = refusedPreflights()
  const r = await page.evaluate(callFromPage, { baseURL: llm.baseURL, stream: false })
  expect(r.status).toBe(0)
  expect(r.error).toMatch(/TypeError: Failed to fetch/)
  // The preflight got no allow headers, so Chromium never sent the POST.
  expect(posts()).toBe(before)
  expect(refusedPreflights()).toBe(refusedBefore + 1)
})

test('"Run the demo attack" with the demo chatbot on the local model: every reply is the model\'s, and the title says which ran', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await page.setViewportSize({ width: 1440, height: 1000 })
  await page.goto('/run')
  await page.getByRole('radiogroup', { name: 'Replies written by' }).getByRole('radio', { name: 'Local model' }).click()
  await setField(page, 'Model server (OpenAI-compatible)', llm.baseURL)
  await expect(page.getByLabel('Model name', { exact: true })).toHaveValue('smollm2')
  // One run a task: three replies by the model.
  await setField(page, 'Max runs per task', '1')
  const before = posts()
  await page.getByRole('button', { name: 'Run the demo attack' }).click()
  await waitForState(page, 'Finished', 240_000)
  await expect(
    page.getByRole('heading', { name: /chatbot-secret-leak against demo chatbot on smollm2: “Guide: blind user”/ }),
  ).toBeVisible()
  const statuses = await taskStatuses(page)
  expect(statuses).toHaveLength(3)
  // Leaked or not is the model's draw; an error is not.
  for (const s of statuses) expect(['success', 'failed', 'max_runs']).toContain(s)
  expect(posts() - before).toBe(3)
  // Back to the deterministic policy: the model is not called, and the title says so.
  await page.getByRole('radiogroup', { name: 'Replies written by' }).getByRole('radio', { name: 'Deterministic policy' }).click()
  await page.getByRole('button', { name: 'Run the demo attack' }).click()
  await waitForState(page, 'Finished', 60_000)
  await expect(
    page.getByRole('heading', { name: /chatbot-secret-leak against demo chatbot \(deterministic\): “Guide: blind user”/ }),
  ).toBeVisible()
  expect(posts() - before).toBe(3)
})

test("the page's LLM attacker and judge on the local model, against the demo chatbot on it: every run judged by the model", async ({
  page,
}) => {
  test.setTimeout(300_000)
  // Room for the judge's JSON verdict (a verdict cut short is not JSON); the attacker asks for 600 tokens.
  const model = await startLocalLlm(procs, ['--allow-origin', APP_ORIGIN, '--max-tokens', '160'])
  const calls = () => (model.process.stderr().match(/^POST \/v1\/chat\/completions 200 /gm) ?? []).length
  await page.setViewportSize({ width: 1440, height: 1000 })
  await page.goto('/run')
  await page.getByRole('radiogroup', { name: 'Replies written by' }).getByRole('radio', { name: 'Local model' }).click()
  await setField(page, 'Model server (OpenAI-compatible)', model.baseURL)
  await pickClaim(page, 'chatbot-secret-leak-judged.json')
  await page.getByRole('radio', { name: 'LLM' }).click()
  await setField(page, 'Max runs per task', '1')
  const attacker = page.getByRole('group', { name: 'Attacker model' })
  await attacker.getByLabel('Base URL (OpenAI-compatible)').fill(model.baseURL)
  await attacker.getByLabel('Model', { exact: true }).fill('smollm2')
  const before = calls()
  await page.getByRole('button', { name: 'Run threat model' }).click()
  await waitForState(page, 'Finished', 240_000)
  const statuses = await taskStatuses(page)
  expect(statuses).toHaveLength(2)
  // Leaked or not is the judge's draw; an error (a verdict it could not read) is not.
  for (const s of statuses) expect(['success', 'failed']).toContain(s)
  for (const result of await page.getByTestId('task-result').all()) await expect(result).toContainText('judge (smollm2): ')
  // Each task's one run: the attack, the chatbot's reply and the verdict, all by the model.
  expect(calls() - before).toBe(6)
})
