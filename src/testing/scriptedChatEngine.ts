/**
 * A ChatEngine that answers from a script, for the tests of the
 * OpenAI-compatible server's HTTP side (routes, hardening, queueing, seeds)
 * without a model: tokens are words, each answer is streamed word by word,
 * and a test can hold generations at a gate to fill the slots and the queue.
 * The real engine (node-llama-cpp) is tested through `serve-llm` in
 * src/servers/llm/realModel.test.ts.
 */
import { PromptTooLongError, type ChatEngine, type Generation, type GenerateHooks, type GenerateRequest } from '../servers/llm/chatEngine'

export interface ScriptedCall {
  readonly slot: number
  readonly request: GenerateRequest
  /** Set when the generation ended by its abort signal. */
  aborted: boolean
}

export interface ScriptedChatEngine extends ChatEngine {
  readonly calls: ScriptedCall[]
  /** Generations wait here until `open()`; open by default. */
  hold(): void
  open(): void
  /** Resolves once `n` generations have started (are past admission, at the gate). */
  started(n: number): Promise<void>
}

const words = (s: string) => s.split(/\s+/).filter((w) => w !== '')

export function scriptedChatEngine(
  options: {
    slots?: number
    contextSize?: number
    modelId?: string
    /** The whole answer for a request; default: "echo: <last message>". */
    reply?: (request: GenerateRequest) => string
  } = {},
): ScriptedChatEngine {
  const calls: ScriptedCall[] = []
  let gate: Promise<void> | null = null
  let release = () => undefined as void
  const waiters: Array<{ n: number; done: () => void }> = []
  const notify = () => {
    for (const w of [...waiters]) {
      if (calls.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1)
        w.done()
      }
    }
  }
  const contextSize = options.contextSize ?? 1000
  return {
    modelId: options.modelId ?? 'scripted',
    contextSize,
    slots: options.slots ?? 1,
    calls,
    hold() {
      if (gate === null) gate = new Promise<void>((r) => (release = r))
    },
    open() {
      release()
      gate = null
    },
    started: (n) =>
      new Promise<void>((done) => {
        waiters.push({ n, done })
        notify()
      }),
    async generate(slot: number, request: GenerateRequest, hooks: GenerateHooks): Promise<Generation> {
      const call: ScriptedCall = { slot, request, aborted: false }
      calls.push(call)
      notify()
      const promptTokens = request.messages.reduce((n, m) => n + words(m.content).length + 2, 0)
      if (promptTokens >= contextSize) throw new PromptTooLongError(promptTokens, contextSize)
      if (gate !== null) {
        const signal = hooks.signal
        await Promise.race([gate, new Promise<void>((r) => signal?.addEventListener('abort', () => r(), { once: true }))])
      }
      hooks.onStart?.(promptTokens)
      const last = request.messages[request.messages.length - 1]?.content ?? ''
      let answer = words(options.reply ? options.reply(request) : `echo: ${last}`)
      let finishReason: Generation['finishReason'] = 'stop'
      const stopAt = answer.findIndex((w) => request.stop.some((s) => w.includes(s)))
      if (stopAt >= 0) answer = answer.slice(0, stopAt)
      if (request.maxTokens !== undefined && answer.length > request.maxTokens) {
        answer = answer.slice(0, request.maxTokens)
        finishReason = 'length'
      }
      const out: string[] = []
      for (const w of answer) {
        if (hooks.signal?.aborted) {
          call.aborted = true
          break
        }
        const piece = out.length === 0 ? w : ` ${w}`
        out.push(piece)
        hooks.onText?.(piece)
        await new Promise((r) => setImmediate(r))
      }
      if (hooks.signal?.aborted) call.aborted = true
      return { text: out.join(''), finishReason, aborted: call.aborted, promptTokens, completionTokens: out.length }
    },
    async close() {},
  }
}
