/**
 * Score and success against cumulative cost across a task's runs, as plain
 * geometry for an SVG. When every run cost nothing (no LLM), cost cannot
 * spread the points, so the x axis falls back to the run number and says so.
 */
export interface RunPoint {
  readonly run: number
  readonly score: number
  readonly success: boolean
  readonly cumulativeCost: number
  readonly evaluated: boolean
}

export interface ChartGeometry {
  readonly xAxis: 'cost' | 'run'
  readonly xMax: number
  readonly yMin: number
  readonly yMax: number
  readonly points: ReadonlyArray<RunPoint & { x: number; y: number }>
  /** Best score so far, as a step line. */
  readonly bestPath: string
  readonly xTicks: ReadonlyArray<{ x: number; label: string }>
  readonly yTicks: ReadonlyArray<{ y: number; label: string }>
}

export function chartGeometry(runs: readonly RunPoint[], width: number, height: number, pad = 36): ChartGeometry {
  const useCost = runs.some((r) => r.cumulativeCost > 0)
  const xs = runs.map((r) => (useCost ? r.cumulativeCost : r.run))
  const xMin = useCost ? 0 : Math.min(1, ...xs)
  const xMax = Math.max(xMin + (useCost ? 1e-9 : 1), ...xs)
  const scores = runs.map((r) => r.score).filter(Number.isFinite)
  const yMin = Math.min(0, ...scores)
  const yMax = Math.max(1, ...scores)
  const sx = (x: number) => pad + ((x - xMin) / (xMax - xMin)) * (width - 2 * pad)
  const sy = (y: number) => height - pad - ((y - yMin) / (yMax - yMin || 1)) * (height - 2 * pad)
  const points = runs.map((r, i) => ({ ...r, x: sx(xs[i]), y: sy(Number.isFinite(r.score) ? r.score : yMin) }))
  let best = -Infinity
  let path = ''
  for (const p of points) {
    if (!p.evaluated) continue
    const prev = best
    best = Math.max(best, p.score)
    if (path === '') path = `M${p.x.toFixed(1)},${sy(best).toFixed(1)}`
    else path += ` H${p.x.toFixed(1)}${best !== prev ? ` V${sy(best).toFixed(1)}` : ''}`
  }
  const tickCount = 4
  const fmt = (v: number) => (useCost ? `$${v < 0.01 && v > 0 ? v.toExponential(1) : v.toFixed(2)}` : String(Math.round(v)))
  // Run numbers are integers: tick whole runs only, at most tickCount + 1 of them.
  const runStep = Math.max(1, Math.ceil((xMax - xMin) / tickCount))
  const xTicks = useCost
    ? Array.from({ length: tickCount + 1 }, (_, i) => {
        const v = xMin + ((xMax - xMin) * i) / tickCount
        return { x: sx(v), label: fmt(v) }
      })
    : Array.from({ length: Math.floor((xMax - xMin) / runStep) + 1 }, (_, i) => {
        const v = xMin + i * runStep
        return { x: sx(v), label: fmt(v) }
      })
  const yTicks = Array.from({ length: tickCount + 1 }, (_, i) => {
    const v = yMin + ((yMax - yMin) * i) / tickCount
    return { y: sy(v), label: v.toFixed(2) }
  })
  return { xAxis: useCost ? 'cost' : 'run', xMax, yMin, yMax, points, bestPath: path, xTicks, yTicks }
}
