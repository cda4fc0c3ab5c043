import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../testing/seededRandom'
import { utcIso } from './time'

/** isoformat's fields one by one (the printer before toISOString took the common years). */
function fieldByField(d: Date): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  const ms = d.getUTCMilliseconds()
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:` +
    `${pad(d.getUTCSeconds())}${ms === 0 ? '' : `.${pad(ms, 3)}000`}+00:00`
  )
}

describe('utcIso', () => {
  it('prints as datetime.isoformat() on an aware UTC time: microseconds, none when zero', () => {
    expect(utcIso(new Date(Date.UTC(2026, 11, 2, 0, 13, 49, 673)))).toBe('2026-12-02T00:13:49.673000+00:00')
    expect(utcIso(new Date(Date.UTC(2026, 11, 2, 0, 13, 49, 0)))).toBe('2026-12-02T00:13:49+00:00')
    expect(utcIso(new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 1)))).toBe('1969-12-31T23:59:59.001000+00:00')
    expect(utcIso(new Date(0))).toBe('1970-01-01T00:00:00+00:00')
  })

  it('agrees with the field-by-field print over the years and the milliseconds, within a second and across', () => {
    const next = seededRandom(7)
    const edges = [
      Date.UTC(1000, 0, 1),
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -1000,
      -1,
      999,
      1000,
    ]
    const samples = [
      ...edges,
      ...Array.from({ length: 2000 }, (_, i) => {
        const ms = Math.floor((next() * 2 - 1) * 8.6e15)
        return i % 4 === 0 ? ms - (ms % 1000) : ms
      }),
    ]
    // Each twice more, a millisecond and half a second on: the next print often falls in the second it remembers.
    for (const ms of samples.flatMap((x) => [x, x + 1, x + 500])) expect(utcIso(new Date(ms)), String(ms)).toBe(fieldByField(new Date(ms)))
  })
})
