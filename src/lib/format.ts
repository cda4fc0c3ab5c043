/** Numbers as the dashboard shows them. */
export const usd = (x: number) => `$${x < 0.01 && x > 0 ? x.toFixed(5) : x.toFixed(4)}`
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`
}
