/**
 * "1 tag", "2 tags", "1,024 threat models": a count with its noun in the right
 * number. Every place that shows a count says it through here, so none of them
 * reads "1 tags". `many` is for nouns whose plural is not noun + s.
 */
export function plural(n: number | bigint, one: string, many = `${one}s`): string {
  const count = typeof n === 'bigint' ? n.toLocaleString('en-US') : n.toLocaleString('en-US')
  return `${count} ${n === 1 || n === 1n ? one : many}`
}

/** Just the noun, for sentences where the number is written elsewhere. */
export function nounFor(n: number | bigint, one: string, many = `${one}s`): string {
  return n === 1 || n === 1n ? one : many
}
