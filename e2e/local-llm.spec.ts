/**
 * `redscope serve-llm` (the real local model) called from the app's page in
 * Chromium, as the browser's LLM attacker calls a model: across origins,
 * with the openai SDK's headers, so through a real CORS preflight. A page of
 * an origin not allowed gets nothing, and the model never runs for it.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { CliProcesses } from '../src/testing/cliProcesses'
import { localModelAvailable, startLocalLlm, type LocalLlm } from '../src/testing/localModel'

const APP_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_APP_PORT ?? 4173)}`
const procs = new CliProcesses()
let llm: LocalLlm
let other: Server
let otherUrl: string

test.skip(!localModelAvailable(), 'SmolLM2 is not pulled (node bin/redscope.mjs models pull smollm2)')

test.beforeAll(async () => {
  test.setTimeout(180_000)
  // Only the app's origin: the page on `other` is then a foreign one.
  llm = await startLocalLlm(procs, ['--allow-origin', APP_ORIGIN])
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
    Authorization: 'Bearer no-key', 'Content-Type': 'application/json', Accept: 'application/json',
    'X-Stainless-Lang': 'js', 'X-Stainless-Package-Version': '6.49.0', 'X-Stainless-OS': 'Unknown', 'X-Stainless-Arch': 'unknown',
    'X-Stainless-Runtime': 'browser:chrome', 'X-Stainless-Runtime-Version': '140.0.0', 'X-Stainless-Retry-Count': '0', 'X-Stainless-Timeout': '600',
  }
  try {
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST', headers,
      body: JSON.stringify({ model: 'smollm2', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 8, temperature: 0.8, seed: 4, stream }),
    })
    return { status: res.status, seed: res.headers.get('x-redscope-seed'), body: await res.text(), error: null }
  } catch (e) {
    return { status: 0, seed: null, body: '', error: String(e) }
  }
}

const count = (re: RegExp) => (llm.process.stderr().match(re) ?? []).length
const posts = () => count(/^POST \/v1\/chat\/completions /gm)
const refusedPreflights = () => count(/^OPTIONS \/v1\/chat\/completions 204 preflight refused$/gm)

test('the app\'s page gets answers from serve-llm, plain and streamed, through the CORS preflight', async ({ page }) => {
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
  const text = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)).choices[0]?.delta?.content ?? '').join('')
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
