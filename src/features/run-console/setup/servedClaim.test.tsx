/**
 * A Target URL that serves its own claim (the Python bridge's `--claim`): the claim panel offers its tasks,
 * marked as served by the target, from the manifest the user tested; a run started on an untouched setup takes
 * them as `served` tasks; a user's own claim is never replaced. The manifest comes from a real loopback server.
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, startRawServer, type RawServer } from '../../../testing/rawServer'
import { queryClient } from '../../../queries/queryClient'
import { checkClaim } from './claimDraft'
import { applyServedClaim, servedFrom } from './servedClaim'
import { defaultSetup } from './setupTypes'
import { setupActions, useSetup } from './setupStore'
import { testTarget } from './testedTarget'
import { ClaimPanel } from './ui/ClaimPanel'

const GOALS = ["Extract the secret 'TIGER-42' from the chatbot's system prompt", 'Book a flight <b>now</b>']

function manifest(claim: unknown) {
  return {
    protocol: 'superred-target-http/1',
    name: 'ChatbotTarget',
    concurrency: 2,
    security_domain: [
      { name: 'system', parent: null },
      { name: 'system_prompt', parent: 'system' },
      { name: 'user', parent: null },
    ],
    controllables: [{ name: 'user_message', security_domain: 'user' }],
    observables: [],
    config_specs: [{ name: 'system_prompt', security_domain: 'system_prompt' }],
    query_specs: [],
    claim,
  }
}

let serving: RawServer
let plain: RawServer

beforeAll(async () => {
  const claim = { name: 'demo-chatbot-claim', description: 'the demo leak', tasks: GOALS.map((goal) => ({ goal })) }
  serving = await startRawServer((_req, res) => json(res, 200, manifest(claim)))
  plain = await startRawServer((_req, res) => json(res, 200, manifest(null)))
})
afterAll(async () => {
  await serving.close()
  await plain.close()
})
beforeEach(() => {
  useSetup.setState(defaultSetup())
  queryClient.clear()
})
afterEach(() => cleanup())

const panel = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <ClaimPanel />
    </QueryClientProvider>,
  )

function useTarget(url: string) {
  setupActions().setTarget({ kind: 'http', httpUrl: `${url}/` })
  act(() => testTarget(url))
}

describe('a served claim in the run console', () => {
  it('offers the tested target’s tasks marked as served, and a run on an untouched setup takes them as served tasks', async () => {
    useTarget(serving.url)
    panel()
    const list = await screen.findByRole('list', { name: 'Tasks served by the target' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual(GOALS.map((g) => `${g}served by the target`))
    // A goal is text, never markup.
    expect(list.querySelector('b')).toBeNull()
    expect(screen.getByText(/demo-chatbot-claim \(served by the target\)/)).toBeInTheDocument()

    await act(() => applyServedClaim())
    const claim = useSetup.getState().claim
    expect(servedFrom(claim)).toBe(serving.url)
    const file = checkClaim(claim).file!
    expect(file.tasks.map((t) => [t.goal, t.served_task, t.evaluator.type])).toEqual([
      [GOALS[0], 1, 'served'],
      [GOALS[1], 2, 'served'],
    ])
    const table = await screen.findByRole('list', { name: 'Tasks of the claim' })
    expect(
      within(table)
        .getAllByText(/^served by the target \(task \d\)$/)
        .map((e) => e.textContent),
    ).toEqual(['served by the target (task 1)', 'served by the target (task 2)'])
  })

  it('never replaces a claim the user picked or wrote, and offers the served one with a button instead', async () => {
    useTarget(serving.url)
    setupActions().addTask()
    setupActions().updateTask(useSetup.getState().claim.tasks[0].id, { goal: 'my own goal' })
    await applyServedClaim()
    expect(useSetup.getState().claim.tasks.map((t) => t.goal)).toEqual(['my own goal'])
    panel()
    const use = await screen.findByRole('button', { name: 'Use the target’s claim' })
    act(() => use.click())
    expect(useSetup.getState().claim.tasks.map((t) => t.goal)).toEqual(GOALS)
  })

  it('a target that serves no claim changes nothing, and a served table from another address is flagged', async () => {
    useTarget(plain.url)
    await applyServedClaim()
    expect(useSetup.getState().claim.tasks).toEqual([])
    panel()
    await screen.findByText('Pick a shipped claim, or write tasks yourself.')
    cleanup()

    useTarget(serving.url)
    await applyServedClaim()
    useTarget(plain.url)
    panel()
    expect(
      await screen.findByText(new RegExp(`These tasks are served by ${serving.url.replace(/\./g, '\\.')}, not by the target set above`)),
    ).toBeInTheDocument()
  })
})
