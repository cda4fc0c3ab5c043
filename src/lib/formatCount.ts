/** 351,974 as "351,974"; a 300-digit count as "≈ 1.23 × 10^299". */
export function formatCount(n: bigint): string {
  const s = n.toString()
  if (s.length <= 15) return Number(n).toLocaleString('en-US')
  return `≈ ${s[0]}.${s.slice(1, 3)} × 10^${s.length - 1}`
}
