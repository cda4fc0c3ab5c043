/**
 * Green-white (0%) to the accent red (100%): how often the threat models that
 * grant a tag broke the claim. On a square-root scale, so that the first
 * successes already show: a tag that breaks 5% of the time is not "safe".
 */
export function rateColour(rate: number | null): string {
  if (rate === null) return '#f1f3f5'
  const t = Math.sqrt(Math.min(1, Math.max(0, rate)))
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t)
  return `rgb(${mix(235, 250)}, ${mix(251, 82)}, ${mix(238, 120)})`
}
