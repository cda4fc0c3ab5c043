/**
 * What the OpenAI-compatible server needs from a model: one chat turn at a
 * time per slot, streamed as text chunks, with its token counts. The
 * node-llama-cpp engine (llamaEngine.ts) is the real one; the server's
 * hardening tests drive a scripted one, so that they run without the model.
 */

export interface EngineMessage {
  readonly role: 'system' | 'user' | 'assistant'
  readonly content: string
}

export interface GenerateRequest {
  readonly messages: readonly EngineMessage[]
  /** 0 is greedy (the seed then changes nothing). */
  readonly temperature: number
  readonly topP?: number
  /** At most this many completion tokens; the engine also stops where the context ends. */
  readonly maxTokens?: number
  readonly stop: readonly string[]
  /** An unsigned 32-bit integer: with the same request and seed, the same text. */
  readonly seed: number
  readonly frequencyPenalty?: number
  readonly presencePenalty?: number
  /** The answer is JSON (OpenAI's `response_format`), held to it by a grammar as it is sampled. */
  readonly json?: JsonConstraint
}

/** `any`: a JSON object (`json_object`); `schema`: JSON matching a JSON Schema (`json_schema`). */
export type JsonConstraint = { readonly kind: 'any' } | { readonly kind: 'schema'; readonly schema: Readonly<Record<string, unknown>> }

export interface GenerateHooks {
  /** Called once the prompt fits, before the first token: a stream's headers go out here. */
  readonly onStart?: (promptTokens: number) => void
  /** Each new piece of the answer's text, in order; their concatenation is the answer. */
  readonly onText?: (text: string) => void
  /** Aborting ends the generation early with the text so far (`aborted`). */
  readonly signal?: AbortSignal
}

export interface Generation {
  readonly text: string
  /** `length`: max tokens or the end of the context; `stop`: the model's end, or a stop string. */
  readonly finishReason: 'stop' | 'length'
  readonly aborted: boolean
  readonly promptTokens: number
  readonly completionTokens: number
}

export interface ChatEngine {
  /** The model's name in answers and in GET /v1/models. */
  readonly modelId: string
  /** Tokens each slot holds: prompt and completion together. */
  readonly contextSize: number
  /** Generations that can run at once; slot numbers are 0 .. slots-1. */
  readonly slots: number
  /** One turn on one slot; a slot runs one generation at a time (the server's admission sees to it). */
  generate(slot: number, request: GenerateRequest, hooks: GenerateHooks): Promise<Generation>
  close(): Promise<void>
}

/** The prompt alone fills the context: OpenAI's `context_length_exceeded`. */
export class PromptTooLongError extends Error {
  readonly promptTokens: number
  readonly contextSize: number
  constructor(promptTokens: number, contextSize: number) {
    super(
      `the messages take ${promptTokens} tokens, and this server's context holds ${contextSize} (prompt and completion together): shorten them, or start the server with a larger --context`,
    )
    this.name = 'PromptTooLongError'
    this.promptTokens = promptTokens
    this.contextSize = contextSize
  }
}

/** A `response_format` schema the engine cannot turn into a grammar: the request is refused, not answered unconstrained. */
export class ResponseFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ResponseFormatError'
  }
}
