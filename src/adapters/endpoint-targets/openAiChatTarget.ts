/**
 * The chatbot target over a real OpenAI-compatible chat endpoint, in the
 * page: superred's chatbot forest (system{system_prompt, model,
 * model_identity}, user). Controllables: the system prompt and the user
 * message before the call, the model's response after it. Observables: the
 * model's identity (static), the message it received, the model's response
 * as it came back (model) and the reply the user sees (user). Config:
 * system_prompt, user_message. Query: last_reply.
 */
import {
  controllable,
  observable,
  observableEvent,
  observableValue,
  postCallEvent,
  preCallEvent,
  targetFactory,
  type ChatBackend,
  type ConfigSpec,
  type Controllable,
  type Emit,
  type Observable,
  type ObservableValue,
  type QuerySpec,
  type SendEvent,
  type Target,
  type TargetFactory,
} from '../../core/engine'
import { buildDomain, CHATBOT_FOREST, type SecurityDomain } from '../../core/tags'

export interface OpenAiChatTargetConfig {
  readonly model: string
  readonly systemPrompt: string
  readonly userMessage: string
  readonly temperature?: number
}

export class OpenAiChatSurfaces {
  readonly domain: SecurityDomain = buildDomain(CHATBOT_FOREST)
  private readonly tag = (n: string) => this.domain.get(n)!
  readonly systemPrompt: Controllable = controllable('system_prompt', this.tag('system_prompt'), {
    description: 'the system prompt (an injection replaces it)',
  })
  readonly userMessage: Controllable = controllable('user_message', this.tag('user'), {
    description: "the user's message (an injection replaces it)",
  })
  readonly modelResponse: Controllable = controllable('model_response', this.tag('model'), {
    description: "the model's reply, seen after the call (an injection replaces it)",
  })
  readonly modelIdentity: Observable = observable('model_identity', this.tag('model_identity'), { description: 'which model answers' })
  readonly userRequest: Observable = observable('user_request', this.tag('user'), { description: 'the message the model received' })
  readonly modelOutput: Observable = observable('model_response', this.tag('model'), {
    description: 'the model’s response as it came back, before anyone rewrote it',
  })
  readonly reply: Observable = observable('reply', this.tag('user'), { description: 'the reply the user sees' })
  readonly configSpecs: readonly ConfigSpec[] = [
    { name: 'system_prompt', securityDomain: this.tag('system_prompt'), description: 'the system prompt' },
    { name: 'user_message', securityDomain: this.tag('user'), description: "the user's message when nobody injects one" },
  ]
  readonly querySpecs: readonly QuerySpec[] = [{ name: 'last_reply', description: 'the reply of the last run', params: [] }]
}

export class OpenAiChatTarget implements Target {
  private readonly s: OpenAiChatSurfaces
  private readonly backend: ChatBackend
  private readonly config: OpenAiChatTargetConfig
  private systemPrompt: string
  private userMessage: string
  private lastReply = ''

  constructor(surfaces: OpenAiChatSurfaces, backend: ChatBackend, config: OpenAiChatTargetConfig) {
    this.s = surfaces
    this.backend = backend
    this.config = config
    this.systemPrompt = config.systemPrompt
    this.userMessage = config.userMessage
  }

  get securityDomain() {
    return this.s.domain
  }
  get configSpecs() {
    return this.s.configSpecs
  }
  get querySpecs() {
    return this.s.querySpecs
  }
  getControllables(): readonly Controllable[] {
    return [this.s.systemPrompt, this.s.userMessage, this.s.modelResponse]
  }
  getObservables(): readonly ObservableValue[] {
    return [observableValue(this.s.modelIdentity, this.config.model)]
  }

  setConfig(name: string, value: string): void {
    if (name === 'system_prompt') this.systemPrompt = value
    else if (name === 'user_message') this.userMessage = value
    else
      throw new Error(
        `unknown config '${name}': this chat endpoint takes system_prompt and user_message (a claim written for a reference target's 'defence' does not apply to a real model)`,
      )
  }

  query(name: string): string {
    if (name === 'last_reply') return this.lastReply
    throw new Error(`unknown query '${name}': this chat endpoint answers last_reply`)
  }

  async run(emit: Emit, sendEvent: SendEvent, signal?: AbortSignal): Promise<void> {
    const replaced = async (event: Parameters<SendEvent>[0]) => {
      const r = await sendEvent(event)
      return r.type === 'ControllableInjection' ? r.value : null
    }
    const system = (await replaced(preCallEvent(this.s.systemPrompt, this.systemPrompt))) ?? this.systemPrompt
    const message = (await replaced(preCallEvent(this.s.userMessage, this.userMessage))) ?? this.userMessage
    emit(observableEvent(this.s.userRequest, message))
    const result = await this.backend.chat(
      this.config.model,
      {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: message },
        ],
        ...(this.config.temperature === undefined ? {} : { temperature: this.config.temperature }),
      },
      signal,
    )
    const draft = result.content ?? ''
    emit(observableEvent(this.s.modelOutput, draft))
    const reply = (await replaced(postCallEvent(this.s.modelResponse, message, draft))) ?? draft
    this.lastReply = reply
    emit(observableEvent(this.s.reply, reply))
  }

  async resetEphemeralState(): Promise<void> {
    this.lastReply = ''
  }

  async teardown(): Promise<void> {}
}

export function openAiChatTargetFactory(
  backend: ChatBackend,
  config: OpenAiChatTargetConfig,
  concurrency = 4,
): { factory: TargetFactory; domain: SecurityDomain } {
  const surfaces = new OpenAiChatSurfaces()
  return { factory: targetFactory(() => new OpenAiChatTarget(surfaces, backend, config), concurrency), domain: surfaces.domain }
}
