/**
 * A small TypeScript Target for protocol tests: one pre-call and one
 * post-call controllable, runtime observables (one with a domain override),
 * a config that makes the run fail halfway, and a query that reports what
 * was injected. `stats` counts instances and teardowns across sessions.
 */
import {
  controllable,
  observable,
  observableEvent,
  observableValue,
  postCallEvent,
  preCallEvent,
  type Emit,
  type SendEvent,
  type Target,
} from '../core/engine'
import { buildDomain } from '../core/tags'

export const PROBE_FOREST = {
  tags: [
    { name: 'system', parent: null, description: 'the system side' },
    { name: 'system_prompt', parent: 'system', description: 'the prompt' },
    { name: 'user', parent: null, description: 'the user' },
    { name: 'tools', parent: null, description: 'all tools' },
    { name: 'inbox', parent: 'tools', description: 'the inbox' },
  ],
}

export interface ProbeStats {
  created: number
  tornDown: number
}

export function probeFactory(stats: ProbeStats = { created: 0, tornDown: 0 }): () => Target {
  const domain = buildDomain(PROBE_FOREST)
  const tag = (n: string) => domain.get(n)!
  const userMessage = controllable('user_message', tag('user'), { description: "the user's message" })
  const inboxEmail = controllable('inbox_email', tag('inbox'), { description: 'an email in the inbox' })
  const identity = observable('model_identity', tag('system'), { description: 'which model' })
  const echo = observable('echo', tag('user'))
  const trace = observable('trace', tag('system'))
  return () => {
    stats.created++
    let mode = 'ok'
    let injected: string[] = []
    const target: Target = {
      securityDomain: domain,
      configSpecs: [{ name: 'mode', securityDomain: tag('system'), description: 'ok | fail | slow' }],
      querySpecs: [
        { name: 'injections', description: 'values injected in the last run', params: [] },
        { name: 'lookup', description: 'a value by key', params: [{ name: 'key', description: 'which value' }] },
      ],
      setConfig(name, value) {
        if (!['ok', 'fail', 'slow'].includes(value)) throw new Error(`mode must be ok, fail or slow (got '${value}')`)
        if (name === 'mode') mode = value
      },
      query: (name, params) => (name === 'lookup' ? `value of ${params?.key}` : JSON.stringify(injected)),
      getControllables: () => [userMessage, inboxEmail],
      getObservables: () => [observableValue(identity, 'probe-1')],
      async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal) {
        emit(observableEvent(echo, 'run started'))
        const first = await sendEvent(preCallEvent(userMessage, 'hello?'))
        if (first.type === 'ControllableInjection') injected.push(first.value)
        emit(observableEvent(echo, { message: first.type === 'ControllableInjection' ? first.value : null }))
        if (mode === 'fail') throw new Error('the probe failed on purpose')
        if (mode === 'slow')
          await new Promise((resolve, reject) => {
            const t = setTimeout(resolve, 60_000)
            signal?.addEventListener('abort', () => {
              clearTimeout(t)
              reject(signal.reason)
            })
          })
        // An event whose domain overrides its observable's: the client must keep it.
        emit(observableEvent(trace, 'reading inbox', { securityDomain: tag('inbox') }))
        const second = await sendEvent(postCallEvent(inboxEmail, 'read_inbox()', 'one email'))
        if (second.type === 'ControllableInjection') injected.push(second.value)
        emit(observableEvent(echo, 'done'))
      },
      async resetEphemeralState() {
        injected = []
      },
      async teardown() {
        stats.tornDown++
      },
    }
    return target
  }
}
