/**
 * 2. Reactivity: a write through the server API in one tab → the new row in another tab's Database
 * table (DOM), against the arrival of the same write's websocket message in that very tab (a raw
 * WebSocket subscribed to the collection's topic): the transport's floor for "the server told the tab".
 *
 * Tab A is the console on /ui/data/live (it leads, so its engine streams); tab B, a plain page of the
 * same origin, POSTs each document. Ids descend, so every new row sorts to the top of the visible
 * window. Times are epoch milliseconds from each tab's performance.timeOrigin + now(), one clock.
 */
import { newContext } from '../lib/browser'
import { engineReady, storeToken } from '../lib/console'
import type { BenchContext } from '../lib/context'
import { makeBody } from '../lib/docs'
import { percentile, type Row, row } from '../lib/stats'

const COLLECTION = 'live'

interface ProbeWindow {
  __seen: { dom: Map<string, number>; ws: Map<string, number>; want: Set<string> }
}

export async function reactivitySuite(ctx: BenchContext, writes: number) {
  const { server, token } = ctx
  for (let i = 0; i < 5; i++) {
    await server.api(`/api/data/${COLLECTION}`, { token, json: { ...makeBody(i), _id: `z-${i}` } })
  }
  const context = await newContext(ctx.browser)
  const tabA = await context.newPage()
  await storeToken(tabA, server, token)
  await tabA.goto(`${server.url}/ui/data/${COLLECTION}`)
  await engineReady(tabA)
  await tabA.waitForSelector('tbody.vt-body tr.vt-row a[href$="/z-0"]')
  await tabA.evaluate(
    async ({ token, topic }) => {
      const now = () => performance.timeOrigin + performance.now()
      const seen: ProbeWindow['__seen'] = { dom: new Map(), ws: new Map(), want: new Set() }
      ;(window as unknown as ProbeWindow).__seen = seen
      new MutationObserver(() => {
        for (const id of seen.want) {
          if (document.querySelector(`tbody.vt-body a[href$="/${id}"]`)) {
            seen.dom.set(id, now())
            seen.want.delete(id)
          }
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
      const ws = new WebSocket(
        `${location.origin.replace(/^http/, 'ws')}/api/socket?token=${token}&url=bench`,
      )
      await new Promise<void>((resolve) => {
        ws.onmessage = (e) => {
          const msg = JSON.parse(String(e.data)) as { event: string; payload: { id?: string } }
          if (msg.event === 'connected') {
            ws.send(JSON.stringify({ event: 'subscribe', payload: { topic } }))
            resolve()
          } else if (msg.event === topic && msg.payload.id) seen.ws.set(msg.payload.id, now())
        }
      })
    },
    { token, topic: `data/${COLLECTION}` },
  )
  const tabB = await context.newPage()
  // Same origin and not the sandboxed Web Server root (whose opaque origin makes the POST cross-origin).
  await tabB.goto(`${server.url}/ui/manifest.webmanifest`)

  const dom: number[] = []
  const ws: number[] = []
  ctx.log(`reactivity: ${writes} writes`)
  for (let i = 0; i < writes; i++) {
    const id = `a${String(99_999 - i).padStart(5, '0')}`
    await tabA.evaluate((id) => (window as unknown as ProbeWindow).__seen.want.add(id), id)
    const t0 = await tabB.evaluate(
      async ({ id, body, token, collection }) => {
        const t = performance.timeOrigin + performance.now()
        const res = await fetch(`/api/data/${collection}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, _id: id }),
        })
        if (!res.ok) throw new Error(`write ${res.status}`)
        return t
      },
      { id, body: makeBody(i), token, collection: COLLECTION },
    )
    const [d, w] = await tabA.evaluate(async (id) => {
      const seen = (window as unknown as ProbeWindow).__seen
      const until = performance.now() + 15_000
      while ((!seen.dom.has(id) || !seen.ws.has(id)) && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 2))
      }
      return [seen.dom.get(id) ?? Number.NaN, seen.ws.get(id) ?? Number.NaN]
    }, id)
    if (Number.isNaN(d) || Number.isNaN(w))
      throw new Error(`write ${id} not seen in 15 s (dom ${d}, ws ${w})`)
    dom.push(d - t0)
    ws.push(w - t0)
  }
  await context.close()

  const rows: Row[] = []
  for (const p of [50, 95, 100]) {
    rows.push(
      row({
        bench: '2 reactivity',
        metric: `server write → row in other tab's table, ${p === 100 ? 'max' : `p${p}`} (${writes} writes)`,
        value: percentile(dom, p),
        unit: 'ms',
        baseline: 'websocket message in that tab',
        baselineValue: percentile(ws, p),
      }),
    )
  }
  return { rows, details: { domMs: dom, wsMs: ws } }
}
