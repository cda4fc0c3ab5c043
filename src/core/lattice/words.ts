/**
 * A threat model in words, for the frontier's answer: "an attacker who
 * writes inbox and reads nothing else". Tag names are quoted as they are
 * (they are user data and rendered as text), joined the English way.
 */
import type { NamedModel } from './order'

function list(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

export function describeModel(m: NamedModel): string {
  const writes = m.scope.length === 0 ? 'writes nothing' : `writes ${list(m.scope)}`
  const reads = m.readOnly.length === 0 ? 'reads nothing else' : `reads ${list(m.readOnly)} and nothing else`
  return `an attacker who ${writes} and ${reads}`
}
