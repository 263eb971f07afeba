/**
 * A CPU profile of a page over CDP (Profiler domain), summarised as the functions with the most self
 * time: what docs/contributing/performance.md quotes where a figure misses its target.
 */
import type { Page } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface HotFunction {
  fn: string
  selfMs: number
  share: number
}

export async function profiled<T>(
  page: Page,
  run: () => Promise<T>,
): Promise<{ result: T; hot: HotFunction[] }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  const result = await run()
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
  await cdp.detach()
  return { result, hot: summarise(profile) }
}

export function summarise(profile: Profile, top = 12): HotFunction[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000
    const frame = byId.get(id)?.callFrame
    if (!frame) return
    const file = frame.url.split('/').pop()?.split('?')[0] ?? ''
    const key = `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`
    self.set(key, (self.get(key) ?? 0) + dt)
    total += dt
  })
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, ms]) => ({ fn, selfMs: Math.round(ms), share: Math.round((ms / total) * 1000) / 10 }))
}
