/** Green-white (0%) to the accent red (100%): how often the threat models that grant a tag broke the claim. */
export function rateColour(rate: number | null): string {
  if (rate === null) return '#f1f3f5'
  const mix = (a: number, b: number) => Math.round(a + (b - a) * rate)
  return `rgb(${mix(235, 250)}, ${mix(251, 82)}, ${mix(238, 120)})`
}
