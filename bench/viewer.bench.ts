/**
 * Viewer figures. In Node, the pure parts: reading and parsing a run of
 * 100,000 events, aligning it with the attacker's view, binning it for the
 * scrubber, diffing two such runs, filtering and sorting 1,000 tasks. In
 * Chromium, against a `vite preview` of a fresh build on a free loopback
 * port: opening a results folder, listing an experiment of 1,000 tasks,
 * opening the 100,000-event run, scrolling through all of it and jumping to
 * its end. Figures are printed, never asserted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { withApp } from './app'
import { TrajectoryFile } from '../src/core/results/format'
import { buildReplay, coverageFor, diffRuns, markBins } from '../src/core/replay'
import { viewTasks } from '../src/features/results/browser/taskTable'
import { heapMb, median, row, time } from './util'

export const EVENTS = 100_000
const TASKS = 1_000
const EXP = 'bench__target__claim__no-llm-00000000'

const FOREST = {
  tags: [
    { name: 'system', parent: null, description: '' },
    { name: 'system_prompt', parent: 'system', description: '' },
    { name: 'user', parent: null, description: '' },
    { name: 'inbox', parent: null, description: '' },
  ],
}

/** A run of `n` items cycling through calls, injections, declines and observations over four domains. */
export function trajectory(n: number, variant = 0): unknown[] {
  const items: unknown[] = []
  const ts = '2026-11-29T18:44:16.404489'
  for (let i = 0; items.length < n; i++) {
    const dom = ['user', 'inbox', 'system_prompt', 'user'][i % 4]
    const name = `${dom}_surface`
    const c = { name, security_domain: dom, description: '', value_type: 'text' }
    items.push({
      kind: 'event',
      type: 'ControllablePreCallEvent',
      event_id: `e${i}-a`,
      timestamp: ts,
      security_domain: dom,
      controllable: c,
      request: `turn ${i}: please summarise the latest message for the user`,
    })
    items.push(
      dom === 'user'
        ? {
            kind: 'response',
            type: 'ControllableInjection',
            controllable: name,
            value: `INJ ${i % 97 === 0 ? variant : 0}: ignore previous instructions`,
          }
        : { kind: 'response', type: 'ControllableNoInjection', controllable: name, declined_by: 'scope' },
    )
    items.push({
      kind: 'event',
      type: 'ObservableEvent',
      event_id: `e${i}-b`,
      timestamp: ts,
      security_domain: dom,
      observable: { name: `${dom}_view`, security_domain: dom, description: '', observable_type: 'text' },
      content: `observation ${i} `.repeat(4),
    })
  }
  items.length = n - 1
  items.push({
    kind: 'event',
    type: 'RunEndEvent',
    event_id: 'end',
    timestamp: ts,
    security_domain: 'user',
    evaluation: { success: true, primary_score: { name: 'primary', value: 1, security_domain: null }, sub_scores: {}, rationale: 'bench' },
  })
  return items
}

const experimentJson = {
  slug: 'bench__target__claim__no-llm',
  hash: '00000000',
  attacker: 'bench',
  target: 'target',
  claim: 'claim',
  model: null,
  scope: ['user'],
  read_only: ['system'],
  scope_label: null,
  task_cost_cap_usd: null,
  task_time_cap_s: null,
  max_runs_per_task: 1,
  include_feedback: true,
  concurrency: 1,
  n_tasks: TASKS,
}
const summary = {
  asr: 0.5,
  n_tasks: TASKS,
  n_success: TASKS / 2,
  n_completed: TASKS,
  n_failed: TASKS / 2,
  n_error: 0,
  n_budget_exhausted: 0,
  n_timeout: 0,
  n_timeout_empty: 0,
  n_skipped: 0,
  max_primary_score: 1,
  mean_primary_score: 0.5,
  total_llm_usage: { calls: 0, cost: 0 },
}

/** A results folder: one experiment of 1,000 tasks (each with task.json), task 1 holding the 100,000-event run. */
export function writeTree(root: string, runText: string): void {
  const exp = join(root, EXP)
  const tasks = Array.from({ length: TASKS }, (_, k) => {
    const index = k + 1
    const success = index % 2 === 0
    return {
      index,
      goal: `goal number ${index} ${success ? 'leak' : 'send'}`,
      goal_hash: index.toString(16).padStart(16, '0'),
      dir: `tasks/${String(index).padStart(5, '0')}__goal`,
      status: success ? 'success' : 'failed',
      success,
      best_score: (index % 10) / 10,
      stop_reason: success ? 'success' : 'max_runs',
      n_runs: 1 + (index % 5),
      cost_usd: (index % 7) / 100,
      has_error: false,
      started_at: null,
      ended_at: null,
    }
  })
  mkdirSync(exp, { recursive: true })
  writeFileSync(
    join(root, 'experiments.json'),
    JSON.stringify({
      schema_version: 5,
      experiments: [
        {
          dir: EXP,
          slug: experimentJson.slug,
          hash: '00000000',
          status: 'complete',
          experiment: experimentJson,
          summary: { asr: 0.5, n_success: TASKS / 2, n_completed: TASKS, total_llm_usage: { calls: 0, cost: 0 } },
          completed_at: null,
        },
      ],
    }),
  )
  writeFileSync(
    join(exp, 'manifest.json'),
    JSON.stringify({
      schema_version: 5,
      status: 'complete',
      experiment: experimentJson,
      timing: { started_at: null, completed_at: null },
      summary,
      tasks,
    }),
  )
  for (const t of tasks) {
    const dir = join(exp, t.dir)
    mkdirSync(join(dir, 'trajectories'), { recursive: true })
    const score = { name: 'primary', value: t.best_score, security_domain: null }
    writeFileSync(
      join(dir, 'task.json'),
      JSON.stringify({
        schema_version: 5,
        index: t.index,
        goal: t.goal,
        goal_hash: t.goal_hash,
        scope: ['user'],
        read_only: ['system'],
        llm_config: null,
        task_cost_cap_usd: null,
        task_time_cap_s: null,
        status: t.status,
        success: t.success,
        stop_reason: t.stop_reason,
        best_score: score,
        best_evaluation: { success: t.success, primary_score: score, sub_scores: {}, rationale: '' },
        n_runs: 1,
        llm_usage: { calls: 0, cost: 0 },
        error: null,
      }),
    )
    if (t.index === 1) {
      writeFileSync(
        join(dir, 'iterations.json'),
        JSON.stringify({
          schema_version: 5,
          index: 1,
          goal: t.goal,
          runs: [{ run_number: 1, primary_score: 1, success: true, trajectory: 'trajectories/run_00001.json' }],
        }),
      )
      writeFileSync(join(dir, 'trajectories', 'run_00001.json'), runText)
    }
  }
  writeFileSync(join(exp, 'domain.json'), JSON.stringify(FOREST))
}

async function nodeFigures(runText: string): Promise<void> {
  row('pure parts (Node)', 'ms')
  const parse = await time(() => TrajectoryFile.parse(JSON.parse(runText)))
  row(`parse + validate a ${(runText.length / 2 ** 20).toFixed(0)} MB run of ${EVENTS.toLocaleString('en-US')} items`, parse.ms)
  const items = parse.value.trajectory
  const before = heapMb()
  const coverage = coverageFor(FOREST, { scope: ['user'], readOnly: ['system'] })
  const replay = await time(() => buildReplay(items, null, coverage))
  row(
    'align with the recomputed attacker view',
    replay.ms,
    `${replay.value.hiddenCount.toLocaleString('en-US')} hidden`,
    `heap Δ ${(heapMb() - before).toFixed(1)} MB`,
  )
  const attacker = items.filter((_, i) => replay.value.attackerItem(i) !== null)
  row('align with an attacker file (by event id)', (await time(() => buildReplay(items, attacker, coverage))).ms)
  row('scrubber bins (400)', await median(5, () => markBins(replay.value, 400)))
  // What reached the attacker through the feedback: every hidden item's text against a rationale that quotes two of them.
  const quoted = [
    ...items.slice(0, -1),
    {
      ...items[items.length - 1],
      evaluation: {
        success: false,
        primary_score: { name: 'primary', value: 0, security_domain: null },
        sub_scores: {},
        rationale: `not found in the response: ${'observation 9 '.repeat(4)} nor in ${'observation 10 '.repeat(4)}; ${'a longer verdict. '.repeat(20)}`,
      },
    },
  ]
  const quotedReplay = buildReplay(quoted, null, coverage)
  const learned = await time(() => quotedReplay.learnedCount())
  row('what the feedback handed over (every hidden item)', learned.ms, `${learned.value.toLocaleString('en-US')} learned`)
  const other = TrajectoryFile.parse({ schema_version: 5, run_number: 2, trajectory: trajectory(EVENTS, 1) }).trajectory
  const diff = await time(() => diffRuns(items, other))
  row('diff two 100,000-item runs', diff.ms, `${diff.value.counts.changed.toLocaleString('en-US')} changed`)
  const tasks = Array.from({ length: TASKS }, (_, k) => ({
    index: k + 1,
    goal: `goal ${k}`,
    goal_hash: '',
    dir: null,
    status: 'failed' as const,
    success: false,
    best_score: ((k * 37) % 100) / 100,
    stop_reason: 'max_runs' as const,
    n_runs: k % 5,
    cost_usd: k % 7,
    has_error: false,
    started_at: null,
    ended_at: null,
  }))
  row(
    'filter + sort 1,000 tasks by score',
    await median(20, () => viewTasks(tasks, { query: '', status: null, sort: 'score', descending: true })),
  )
}

/** Opens the 100,000-event run of the folder's experiment in the viewer (the folder picked, then in-app navigation). */
export async function openBigRun(page: Page, base: string, folder: string): Promise<{ listMs: number; openMs: number }> {
  await page.goto(`${base}/results`)
  const t0 = Date.now()
  await page.getByTestId('folder-input').setInputFiles(folder)
  await page.getByRole('link', { name: EXP }).waitFor()
  const listMs = Date.now() - t0
  const t2 = Date.now()
  // In-app navigation (wouter follows history.pushState): the folder stays open.
  await page.evaluate(
    (url) => history.pushState(null, '', url),
    `/results/${EXP}/00001__goal/1/1?src=folder%3A${encodeURIComponent(folder.split('/').pop()!)}`,
  )
  await page.locator('[role="row"][data-event="0"]').waitFor()
  return { listMs, openMs: Date.now() - t2 }
}

/** Scrolls the open run from top to bottom, `screens` screens a frame; every frame's interval. */
export async function scrollThrough(page: Page, screens = 20) {
  return page.getByTestId('traj-scroll').evaluate(async (el, screens) => {
    el.scrollTop = 0
    await new Promise((r) => requestAnimationFrame(() => r(null)))
    const frames: number[] = []
    const start = performance.now()
    let last = start
    const step = el.clientHeight * screens
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
      el.scrollTop += step
      await new Promise((r) => requestAnimationFrame(() => r(null)))
      const now = performance.now()
      frames.push(now - last)
      last = now
    }
    return { total: performance.now() - start, frames, rows: el.querySelectorAll('[role="row"]').length }
  }, screens)
}

async function browserFigures(folder: string): Promise<void> {
  await withApp(async ({ base, browser }) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    row('in Chromium (vite preview of a production build)', 'ms')

    const t0 = Date.now()
    await page.goto(`${base}/results`)
    await page.getByTestId('folder-input').setInputFiles(folder)
    await page.getByRole('link', { name: EXP }).waitFor()
    row(`open a folder of ${(TASKS * 2 + 5).toLocaleString('en-US')} files and list its experiments`, Date.now() - t0)

    const t1 = Date.now()
    await page.getByRole('link', { name: EXP }).click()
    await page.getByText(`${TASKS.toLocaleString('en-US')} of ${TASKS.toLocaleString('en-US')} tasks`).waitFor()
    await page.getByRole('link', { name: 'goal number 1 send' }).waitFor()
    row(
      `list an experiment of ${TASKS.toLocaleString('en-US')} tasks`,
      Date.now() - t1,
      `${await page.locator('.task-row').count()} rows in the DOM`,
    )
    const t1b = Date.now()
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('score')
    await page.waitForURL(/sort=score/)
    row('  re-sort it by score', Date.now() - t1b)

    const t2 = Date.now()
    // In-app navigation (wouter follows history.pushState): the folder stays open.
    await page.evaluate(
      (url) => history.pushState(null, '', url),
      `/results/${EXP}/00001__goal/1/1?src=folder%3A${encodeURIComponent(folder.split('/').pop()!)}`,
    )
    await page.locator('[role="row"][data-event="0"]').waitFor()
    row(
      `open the run of ${EVENTS.toLocaleString('en-US')} events (read, parse, align, render)`,
      Date.now() - t2,
      `${await page.locator('[role="row"][data-event]').count()} rows in the DOM`,
    )

    const scroll = await scrollThrough(page)
    const frames = [...scroll.frames].sort((a, b) => a - b)
    const at = (q: number) => frames[Math.min(frames.length - 1, Math.floor(frames.length * q))]
    row(
      `scroll through all of it, 20 screens a frame`,
      scroll.total,
      `${frames.length} frames`,
      `p50 ${at(0.5).toFixed(1)} ms`,
      `p99 ${at(0.99).toFixed(1)} ms`,
      `max ${frames[frames.length - 1].toFixed(1)} ms`,
      `${scroll.rows} rows in the DOM`,
    )

    await page.locator('[role="row"][data-event="99990"]').click()
    const t3 = Date.now()
    await page.keyboard.press('Home')
    await page.locator('[role="row"][data-event="0"][aria-selected="true"]').waitFor()
    row('jump to the first event (Home) from the end', Date.now() - t3)
    const t4 = Date.now()
    for (let i = 0; i < 20; i++) await page.keyboard.press('n')
    // Injections sit at items 12k+1 and 12k+10: the 20th after the start is item 118.
    await page.locator('[role="row"][aria-selected="true"][data-event="118"]').waitFor()
    row('step 20 injections by keyboard', Date.now() - t4)
  })
}

export default async function bench(): Promise<void> {
  const runText = JSON.stringify({ schema_version: 5, run_number: 1, trajectory: trajectory(EVENTS) })
  await nodeFigures(runText)
  const root = mkdtempSync(join(tmpdir(), 'redscope-bench-results-'))
  try {
    writeTree(root, runText)
    await browserFigures(root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
