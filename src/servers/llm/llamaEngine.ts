/**
 * The ChatEngine on a local GGUF model through node-llama-cpp (CPU only,
 * prebuilt binaries, never a build from source). node-llama-cpp is an
 * optional dependency: it is imported here, dynamically, and only `redscope
 * serve-llm` loads this file, so the app, `npm start` and every other command
 * run without it. One context holds `slots` sequences (each with the whole
 * --context); a request takes one, starts from an empty history, and formats
 * the chat with the model's own template (the GGUF's Jinja chat template:
 * node-llama-cpp's automatic ChatML wrapper would add a second
 * <|im_start|> before SmolLM2's, whose BOS token is that same marker).
 */
import { basename } from 'node:path'
import type { ChatHistoryItem, Llama, LlamaChatResponse, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp'
import {
  PromptTooLongError,
  ResponseFormatError,
  type ChatEngine,
  type EngineMessage,
  type Generation,
  type GenerateHooks,
  type GenerateRequest,
  type JsonConstraint,
} from './chatEngine'

export const LLAMA_CPP_PACKAGE = 'node-llama-cpp'
export const LLAMA_CPP_VERSION = '3.22.1'

/** node-llama-cpp cannot run here: the message says why and what to install. */
export class LlamaRuntimeMissingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LlamaRuntimeMissingError'
  }
}

/** Why `import('node-llama-cpp')` failed, in words that say how to get it. */
export function explainImportFailure(e: unknown): Error {
  const code = (e as NodeJS.ErrnoException)?.code
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    return new LlamaRuntimeMissingError(
      `serve-llm runs models with ${LLAMA_CPP_PACKAGE}, an optional dependency that is not installed here. ` +
        `In the redscope folder, run \`npm ci\` (it installs it, about 85 MB, unless optional dependencies are omitted) ` +
        `or \`npm install --no-save ${LLAMA_CPP_PACKAGE}@${LLAMA_CPP_VERSION}\`; see docs/local-model.md`,
    )
  }
  return new LlamaRuntimeMissingError(`${LLAMA_CPP_PACKAGE} could not be loaded: ${(e as Error)?.message ?? String(e)}`)
}

export interface LlamaEngineOptions {
  readonly modelPath: string
  /** The name in answers and GET /v1/models; default the file name without `.gguf`. */
  readonly modelId?: string
  /** CPU threads for evaluation. 1 is the default of serve-llm: see its --help. */
  readonly threads: number
  /** Tokens per slot (prompt and completion). */
  readonly contextSize: number
  /** Sequences in the context: generations at once. */
  readonly slots: number
}

type LlamaCpp = typeof import('node-llama-cpp')

async function importLlamaCpp(): Promise<LlamaCpp> {
  try {
    return await import('node-llama-cpp')
  } catch (e) {
    throw explainImportFailure(e)
  }
}

export async function loadLlamaEngine(options: LlamaEngineOptions): Promise<ChatEngine> {
  const cpp = await importLlamaCpp()
  let llama: Llama
  try {
    // gpu: false and build: 'never': the prebuilt CPU binary or nothing; never a download, never a compiler.
    llama = await cpp.getLlama({
      gpu: false,
      build: 'never',
      logLevel: cpp.LlamaLogLevel.error,
      progressLogs: false,
      maxThreads: options.threads,
    })
  } catch (e) {
    if (e instanceof cpp.NoBinaryFoundError) {
      throw new LlamaRuntimeMissingError(
        `${LLAMA_CPP_PACKAGE} has no prebuilt binary for ${process.platform}-${process.arch} in this install: redscope's lockfile carries ` +
          `the linux-x64 CPU build only (package.json overrides the others with an empty package). To use another, remove its ` +
          `@node-llama-cpp/* override from package.json and run \`npm install\`; see docs/local-model.md`,
      )
    }
    throw e
  }
  let model: LlamaModel | undefined
  try {
    model = await llama.loadModel({ modelPath: options.modelPath, gpuLayers: 0 })
    const context = await model.createContext({ contextSize: options.contextSize, threads: options.threads, sequences: options.slots })
    const sequences = Array.from({ length: options.slots }, () => context.getSequence())
    const template = model.fileInfo.metadata.tokenizer?.chat_template
    let chatWrapper: InstanceType<LlamaCpp['JinjaTemplateChatWrapper']> | 'auto' = 'auto'
    if (typeof template === 'string') {
      try {
        chatWrapper = new cpp.JinjaTemplateChatWrapper({ template })
      } catch {
        // A template node-llama-cpp's Jinja cannot read: its own choice of wrapper for the model.
      }
    }
    return new LlamaEngine(cpp, llama, model, sequences, chatWrapper, options)
  } catch (e) {
    await llama.dispose()
    throw e
  }
}

function toHistory(messages: readonly EngineMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem =>
    m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content },
  )
  // The turn the model completes.
  history.push({ type: 'model', response: [] })
  return history
}

/** Grammars kept per schema: a judge sends the same one with every call, and building one costs milliseconds each time. */
const MAX_GRAMMARS = 32

class LlamaEngine implements ChatEngine {
  readonly modelId: string
  readonly contextSize: number
  readonly slots: number
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>()

  constructor(
    private readonly cpp: LlamaCpp,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly sequences: readonly LlamaContextSequence[],
    private readonly chatWrapper: InstanceType<LlamaCpp['JinjaTemplateChatWrapper']> | 'auto',
    options: LlamaEngineOptions,
  ) {
    this.modelId = options.modelId ?? basename(options.modelPath).replace(/\.gguf$/i, '')
    this.contextSize = options.contextSize
    this.slots = options.slots
  }

  /** node-llama-cpp's grammar for the constraint; a schema it cannot express is refused, never half applied. */
  private grammarFor(json: JsonConstraint): Promise<LlamaGrammar> {
    const key = json.kind === 'any' ? 'any' : JSON.stringify(json.schema)
    let grammar = this.grammars.get(key)
    if (grammar === undefined) {
      // The schema came off the wire: node-llama-cpp checks it as it builds the grammar, and its const-generic type cannot.
      const fromSchema = this.llama.createGrammarForJsonSchema.bind(this.llama) as (schema: unknown) => Promise<LlamaGrammar>
      grammar = (json.kind === 'any' ? this.llama.getGrammarFor('json') : fromSchema(json.schema)).catch((e: unknown) => {
        this.grammars.delete(key)
        throw new ResponseFormatError(
          `response_format: this server cannot hold answers to that JSON Schema (${(e as Error)?.message ?? String(e)})`,
        )
      })
      if (this.grammars.size >= MAX_GRAMMARS) this.grammars.delete(this.grammars.keys().next().value!)
      this.grammars.set(key, grammar)
    }
    return grammar
  }

  async generate(slot: number, request: GenerateRequest, hooks: GenerateHooks): Promise<Generation> {
    const sequence = this.sequences[slot]
    if (sequence === undefined) throw new Error(`no slot ${slot} (this engine has ${this.slots})`)
    const grammar = request.json === undefined ? undefined : await this.grammarFor(request.json)
    // Each request stands alone: nothing of the last one's conversation stays in the sequence.
    await sequence.clearHistory()
    const chat = new this.cpp.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false, chatWrapper: this.chatWrapper })
    try {
      const history = toHistory(request.messages)
      const promptTokens = chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(this.model.tokenizer).length
      // The context holds prompt and completion: a prompt that fills it is refused; a completion stops where it ends.
      const room = this.contextSize - promptTokens - 1
      if (room < 1) throw new PromptTooLongError(promptTokens, this.contextSize)
      const maxTokens = Math.min(request.maxTokens ?? room, room)
      hooks.onStart?.(promptTokens)
      let completionTokens = 0
      const penalties =
        request.frequencyPenalty !== undefined || request.presencePenalty !== undefined
          ? { repeatPenalty: { frequencyPenalty: request.frequencyPenalty, presencePenalty: request.presencePenalty } }
          : {}
      const res: LlamaChatResponse = await chat.generateResponse(history, {
        maxTokens,
        temperature: request.temperature,
        topP: request.topP,
        seed: request.seed,
        ...(request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
        ...penalties,
        ...(grammar !== undefined ? { grammar } : {}),
        signal: hooks.signal,
        stopOnAbortSignal: true,
        onTextChunk: hooks.onText,
        onToken: (tokens) => {
          completionTokens += tokens.length
        },
      })
      const stop = res.metadata.stopReason
      return {
        text: res.response,
        finishReason: stop === 'maxTokens' ? 'length' : 'stop',
        aborted: stop === 'abort',
        promptTokens,
        completionTokens,
      }
    } finally {
      chat.dispose({ disposeSequence: false })
    }
  }

  async close(): Promise<void> {
    // Disposes the model, its context and sequences too.
    await this.llama.dispose()
  }
}
