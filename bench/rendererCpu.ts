/**
 * CPU time of a page's renderer, beside wall-clock: on a loaded machine a
 * frame or a click waits for a core as long as it works, so wall-clock
 * figures swing with the load while CPU time does not. Read over CDP
 * (Performance.getMetrics): ThreadTime is the renderer main thread's CPU
 * time, ProcessTime the whole renderer process's (all its threads, coarser).
 */
import type { Page } from '@playwright/test'

export interface RendererCpu {
  /** CPU milliseconds so far: the main thread's and the renderer process's. */
  read(): Promise<{ thread: number; process: number }>
  close(): Promise<void>
}

export async function rendererCpu(page: Page): Promise<RendererCpu> {
  const cdp = await page.context().newCDPSession(page)
  // threadTicks: the task durations Chromium reports are thread CPU time, not wall time.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
  return {
    async read() {
      const { metrics } = await cdp.send('Performance.getMetrics')
      const value = (name: string) => (metrics.find((m) => m.name === name)?.value ?? Number.NaN) * 1000
      return { thread: value('ThreadTime'), process: value('ProcessTime') }
    },
    close: () => cdp.detach().catch(() => undefined),
  }
}
