/**
 * Scenario 2 of the sync issue in real Chromium against the real server: the server applied a write
 * but its response never reached the browser (the route lets the request through with route.fetch(),
 * then aborts the response). The engine cannot tell this from a failed request and sends the entry
 * again with the same Idempotency-Key; the server must answer from its idempotency record, so the
 * change log holds each write once and the revision moved once. Covers a create (POST) and an edit
 * with If-Match (PATCH), whose repeat would otherwise meet a stale revision. Ends converged.
 */
import type { Route } from '@playwright/test'
import { expect, openLoggedIn, test } from './fixtures'
import {
  engineReady,
  expectConverged,
  freshCollection,
  localState,
  mutate,
  SyncPanel,
  writesPerDoc,
} from './pages/sync-panel'

test('a write whose response was lost is replayed without being applied twice', async ({
  page,
  context,
  server,
}) => {
  const { collection } = freshCollection('lost')
  const token = await server.login()
  expect(
    (await server.api(`/api/${collection}`, { token, json: { _id: 'pen', name: 'Pen', price: 1 } })).status,
  ).toBe(201)
  await openLoggedIn(page, server, token, '/')
  await engineReady(page)
  await expect.poll(async () => (await localState(page, collection)).docs.map((d) => d._id)).toContain('pen')

  // The first attempt of each write reaches the server; its answer is cut off on the way back.
  const lost: Array<{ method: string; status: number; key: string | null }> = []
  const loseResponse = async (route: Route) => {
    const request = route.request()
    if (request.method() === 'GET' || lost.some((l) => l.method === request.method())) return route.continue()
    const response = await route.fetch()
    lost.push({
      method: request.method(),
      status: response.status(),
      key: (await request.allHeaders())['idempotency-key'] ?? null,
    })
    await route.abort('connectionreset')
  }
  await context.route(`**/api/${collection}**`, loseResponse)

  expect((await mutate(page, 'create', collection, 'cup', { name: 'Cup', price: 3 })).ok).toBe(true)
  expect((await mutate(page, 'patch', collection, 'pen', { price: 2 })).ok).toBe(true)

  // Both writes were applied by the server the first time, and were sent with an Idempotency-Key.
  await expect
    .poll(() => lost.map((l) => `${l.method} ${l.status}`).sort())
    .toEqual(['PATCH 200', 'POST 201'])
  for (const l of lost) expect(l.key).toBeTruthy()
  const sync = new SyncPanel(page)
  await expect(sync.pendingCount).toBeHidden({ timeout: 20_000 })

  const pen = await server.api<{ price: number; _rev: number }>(`/api/${collection}/pen`, { token })
  expect(pen.body).toMatchObject({ price: 2, _rev: 2 })
  const cup = await server.api<{ name: string; _rev: number }>(`/api/${collection}/cup`, { token })
  expect(cup.body).toMatchObject({ name: 'Cup', price: 3, _rev: 1 })
  // The change log: pen written twice (create, one edit), cup once — no repeat of either lost write.
  expect(await writesPerDoc(server, token, collection)).toEqual({ pen: 2, cup: 1 })
  // Nothing went to the inbox: the repeat was recognised, not refused as a stale If-Match.
  expect((await localState(page, collection)).inbox).toBe(0)

  await context.unroute(`**/api/${collection}**`, loseResponse)
  await expectConverged(page, server, token, collection)
})
