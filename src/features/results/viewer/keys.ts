/** The viewer's keyboard commands, as data: the table and the presenter share them. */
export type StepAction =
  | 'next'
  | 'prev'
  | 'first'
  | 'last'
  | 'next-injection'
  | 'prev-injection'
  | 'next-bookmark'
  | 'prev-bookmark'
  | 'next-run'
  | 'prev-run'
  | 'toggle-bookmark'
  | 'toggle-presenter'
  | 'exit'

export interface KeyLike {
  readonly key: string
  readonly shiftKey: boolean
  readonly ctrlKey: boolean
  readonly metaKey: boolean
  readonly altKey: boolean
}

export function keyAction(e: KeyLike): StepAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  switch (e.key) {
    case 'ArrowDown':
    case 'j':
    case 'ArrowRight':
    case ' ':
      return 'next'
    case 'ArrowUp':
    case 'k':
    case 'ArrowLeft':
      return 'prev'
    case 'Home':
      return 'first'
    case 'End':
      return 'last'
    case 'n':
      return 'next-injection'
    case 'N':
      return 'prev-injection'
    case 'g':
      return 'next-bookmark'
    case 'G':
      return 'prev-bookmark'
    case ']':
      return 'next-run'
    case '[':
      return 'prev-run'
    case 'b':
      return 'toggle-bookmark'
    case 'p':
      return 'toggle-presenter'
    case 'Escape':
      return 'exit'
    default:
      return null
  }
}

export const KEY_HELP: ReadonlyArray<readonly [string, string]> = [
  ['↓ / j', 'next event'],
  ['↑ / k', 'previous event'],
  ['n / N', 'next / previous injection'],
  ['] / [', 'next / previous run'],
  ['g / G', 'next / previous bookmark'],
  ['b', 'bookmark this step'],
  ['p', 'presenter mode'],
  ['Home / End', 'first / last event'],
]

/** True when a key press belongs to a text field, not to the viewer. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}
