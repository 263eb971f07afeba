/**
 * Scenario 7 of the sync issue in real Chromium against the real server: the live stream's `changes`
 * pages arrive duplicated, out of order and with one missing. The engine's socket goes through a
 * relaying proxy (./socket-proxy.ts; Playwright's routeWebSocket does not reach the sync Worker) that
 * rewrites the frames carrying this test's collection:
 *   page 0 is delivered twice; page 1 is held back and delivered after page 2; page 3 is dropped.
 * The engine must ignore the duplicate and the late page, notice both gaps, fill them over HTTP
 * (GET /api/sync) and end with every document: converged, nothing missing, nothing twice.
 */
import type { Route } from '@playwright/test'
import {
  engineReady,
  expectConverged,
  freshCollection,
  type HandleWindow,
  localState,
} from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'

test('duplicated, reordered and missing websocket pages still converge with no gap', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('chaos')
  const token = await server.login()
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect.poll(() => link.engineSockets()).toBe(1)
  await expect
    .poll(() => page.evaluate(() => (window as unknown as HandleWindow).__momentum?.status().network))
    .toBe('online')

  // Count the HTTP pulls from here on: each gap the engine notices is filled by one.
  let pulls = 0
  const countPulls = async (route: Route) => {
    pulls++
    await route.continue()
  }
  await context.route('**/api/sync?**', countPulls)

  const done = { duplicated: 0, reordered: 0, dropped: 0 }
  let seen = 0
  let held: string | null = null
  link.hook = (frame) => {
    const msg = JSON.parse(frame) as { event: string; payload: { changes?: Array<{ collection: string }> } }
    const mine = msg.event === 'changes' && msg.payload.changes?.some((c) => c.collection === collection)
    if (!mine) return [frame]
    const n = seen++
    if (n === 0) {
      done.duplicated++
      return [frame, frame]
    }
    if (n === 1) {
      held = frame
      return []
    }
    if (n === 2 && held) {
      done.reordered++
      const late = held
      held = null
      return [frame, late]
    }
    if (n === 3) {
      done.dropped++
      return []
    }
    return [frame]
  }

  // One document per page: wait for the proxy to see each one before the next write.
  const ids: string[] = []
  for (let i = 0; i < 7; i++) {
    const id = `w-${i}`
    ids.push(id)
    const res = await server.api(`/api/${collection}`, { token, json: { _id: id, n: i } })
    expect(res.status).toBe(201)
    await expect.poll(() => seen, { message: `the stream carries ${id}` }).toBeGreaterThan(i)
  }
  expect(done).toEqual({ duplicated: 1, reordered: 1, dropped: 1 })

  await expect
    .poll(async () => (await localState(page, collection)).docs.map((d) => d._id).sort(), { timeout: 20_000 })
    .toEqual(ids)
  // The overtaking page and the page after the dropped one each reveal a gap, filled over HTTP; when the
  // second gap shows while the first fill is still running, one pull covers both, so at least one.
  expect(pulls).toBeGreaterThanOrEqual(1)
  // Each document exactly as the server has it (a replayed duplicate would not change that, a lost
  // page would leave one missing; expectConverged checks both).
  await context.unroute('**/api/sync?**', countPulls)
  link.hook = null
  await expectConverged(page, server, token, collection)
})
