/**
 * Timestamps in the reference's two formats. Python's `isoformat()` prints
 * microseconds and omits the fraction when they are zero; JS clocks give
 * milliseconds, so the last three digits are always 000.
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function fraction(ms: number): string {
  return ms === 0 ? '' : `.${pad(ms, 3)}000`
}

let clockMs = Number.NaN
let clockText = ''

/**
 * Local naive time, as `datetime.now().isoformat()` (event timestamps). The
 * clock's reading is formatted once per millisecond: a run stamps many
 * events within one.
 */
export function localNaiveIso(date?: Date): string {
  if (date !== undefined) return formatLocal(date)
  const now = Date.now()
  if (now !== clockMs) {
    clockMs = now
    clockText = formatLocal(new Date(now))
  }
  return clockText
}

function formatLocal(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:` +
    `${pad(date.getMinutes())}:${pad(date.getSeconds())}${fraction(date.getMilliseconds())}`
  )
}

let isoSecond = Number.NaN
let isoPrefix = ''

/**
 * Aware UTC time, as `datetime.now(timezone.utc).isoformat()` (result timings). The date and time up to the second
 * are formatted once per second: a sweep prints the times of thousands of runs, most within a second of the last.
 */
export function utcIso(date: Date = new Date()): string {
  const ms = date.getTime()
  const second = Math.floor(ms / 1000)
  if (second !== isoSecond) {
    isoSecond = second
    isoPrefix = utcToSecond(date)
  }
  return `${isoPrefix}${fraction(ms - second * 1000)}+00:00`
}

function utcToSecond(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  )
}
