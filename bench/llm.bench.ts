/**
 * The local model behind `redscope serve-llm` (SmolLM2-135M-Instruct, Q4_1,
 * on the CPU): time to first token and tokens per second at 1 and 2 threads
 * and 1 to 4 concurrent sessions, measured as a client sees them (streamed
 * over HTTP), with the server's CPU time per token. Both servers run at once
 * and are asked in turn (1 thread, then 2, round after round), so that a
 * machine whose load drifts moves both alike; the ratios are taken pair by
 * pair. Needs the model: `node bin/redscope.mjs models pull smollm2`.
 */
import { readFileSync } from 'node:fs'
import { CliProcesses } from '../src/testing/cliProcesses'
import { localModelAvailable, startLocalLlm, type LocalLlm } from '../src/testing/localModel'
import { med, row } from './util'

const ROUNDS = Number(process.env.LLM_BENCH_ROUNDS ?? 3)
const MAX_TOKENS = 48
const THREADS = [1, 2] as const
const SESSIONS = [1, 2, 3, 4] as const
const PROMPT = [{ role: 'user', content: 'Write a short paragraph about why the sky is blue.' }]

interface Answer {
  readonly ttftMs: number
  readonly totalMs: number
  readonly tokens: number
}

/** One streamed answer: when its first text arrived, when it ended, how many tokens (from the usage chunk). */
async function streamed(baseURL: string, seed: number): Promise<Answer> {
  const start = performance.now()
  const res = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      messages: PROMPT,
      max_tokens: MAX_TOKENS,
      temperature: 0.8,
      seed,
      stream: true,
      stream_options: { include_usage: true },
    }),
  })
  if (!res.ok || !res.body) throw new Error(`serve-llm answered ${res.status}: ${await res.text()}`)
  let first: number | null = null
  let tokens = 0
  let buffer = ''
  const decoder = new TextDecoder()
  for await (const bytes of res.body) {
    buffer += decoder.decode(bytes, { stream: true })
    let end
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      if (!event.startsWith('data: ') || event === 'data: [DONE]') continue
      const chunk = JSON.parse(event.slice(6))
      if (first === null && chunk.choices?.[0]?.delta?.content) first = performance.now()
      if (chunk.usage) tokens = chunk.usage.completion_tokens
    }
  }
  const endAt = performance.now()
  return { ttftMs: (first ?? endAt) - start, totalMs: endAt - start, tokens }
}

/** utime + stime of a process, in ms (Linux /proc; null elsewhere). */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // clock ticks, USER_HZ = 100
  } catch {
    return null
  }
}

interface Round {
  readonly ttftMs: number
  readonly aggregateTokS: number
  readonly perSessionTokS: number
  readonly cpuMsPerToken: number | null
}

async function round(llm: LocalLlm, sessions: number, seedBase: number): Promise<Round> {
  const pid = llm.process.child.pid
  const cpu0 = cpuMs(pid)
  const start = performance.now()
  const answers = await Promise.all(Array.from({ length: sessions }, (_, i) => streamed(llm.baseURL, seedBase + i)))
  const wall = performance.now() - start
  const cpu1 = cpuMs(pid)
  const tokens = answers.reduce((n, a) => n + a.tokens, 0)
  return {
    ttftMs: med(answers.map((a) => a.ttftMs)),
    aggregateTokS: tokens / (wall / 1000),
    perSessionTokS: med(answers.map((a) => a.tokens / (a.totalMs / 1000))),
    cpuMsPerToken: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / tokens,
  }
}

export default async function llmBench(): Promise<void> {
  if (!localModelAvailable()) {
    console.log('llm: SmolLM2 is not pulled (node bin/redscope.mjs models pull smollm2); nothing measured')
    return
  }
  const processes = new CliProcesses()
  try {
    const servers = new Map<number, LocalLlm>()
    for (const threads of THREADS) {
      const started = performance.now()
      const llm = await startLocalLlm(processes, ['--threads', String(threads), '--concurrency', '4', '--queue', '8', '--quiet'])
      row(`threads ${threads}: start-up to listening (model load), ms`, performance.now() - started)
      servers.set(threads, llm)
      await streamed(llm.baseURL, 1) // warm-up
    }
    const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]
    console.log(`${ROUNDS} rounds of each; ${MAX_TOKENS}-token answers, streamed; 1-minute load average at start ${load()}`)
    const results = new Map<string, Round[]>()
    for (let r = 0; r < ROUNDS; r++) {
      for (const sessions of SESSIONS) {
        for (const threads of THREADS) {
          const key = `${threads}/${sessions}`
          results.set(key, [...(results.get(key) ?? []), await round(servers.get(threads)!, sessions, 100 * r + 10 * sessions)])
        }
      }
    }
    const get = (threads: number, sessions: number) => results.get(`${threads}/${sessions}`)!
    for (const threads of THREADS) {
      for (const sessions of SESSIONS) {
        const rs = get(threads, sessions)
        const cpu = rs.map((x) => x.cpuMsPerToken).filter((x): x is number => x !== null)
        row(
          `threads ${threads}, ${sessions} session${sessions === 1 ? '' : 's'}: TTFT / tok/s all / tok/s each / CPU ms per token`,
          `${Math.round(med(rs.map((x) => x.ttftMs)))} ms`,
          med(rs.map((x) => x.aggregateTokS)),
          med(rs.map((x) => x.perSessionTokS)),
          cpu.length > 0 ? med(cpu) : '-',
        )
      }
    }
    // Pairwise ratios: each round's 2-thread figure over the same round's 1-thread one.
    const ratio = (sessions: number, pick: (x: Round) => number) => med(get(2, sessions).map((x, i) => pick(x) / pick(get(1, sessions)[i])))
    for (const sessions of SESSIONS) {
      row(
        `${sessions} session${sessions === 1 ? '' : 's'}: 2 threads / 1 thread, tok/s all (pairwise median)`,
        ratio(sessions, (x) => x.aggregateTokS),
      )
      row(
        `${sessions} session${sessions === 1 ? '' : 's'}: 2 threads / 1 thread, TTFT (pairwise median)`,
        ratio(sessions, (x) => x.ttftMs),
      )
    }
    for (const sessions of SESSIONS.slice(1)) {
      const one = get(1, 1)
      row(
        `threads 1: ${sessions} sessions / 1 session, tok/s all (pairwise median)`,
        med(get(1, sessions).map((x, i) => x.aggregateTokS / one[i].aggregateTokS)),
      )
    }
    console.log(`1-minute load average at end ${load()}`)
  } finally {
    await processes.stopAll()
  }
}
