/**
 * The soak's pieces around the browser and the servers (chaos.soak.ts runs them): starting a server
 * (again), opening a device (a context through its proxy) and its tabs, what a write's outcome means
 * for the operation log, and the end check: the differences left between every mirror and the server.
 */
import crypto from 'node:crypto'
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test'
import { type E2EServer, openLoggedIn, startServer } from '../e2e/fixtures'
import { engineReady, type HandleWindow, localState } from '../e2e/pages/sync-panel'
import type { SocketProxy } from '../e2e/socket-proxy'
import { startTestPostgres } from '../helpers/postgres'
import { startTestS3 } from '../helpers/s3'
import type { Ack } from './oplog'

export interface Device {
  name: string
  context: BrowserContext
  proxy: SocketProxy
  pages: Page[]
  collection: string
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const hash = (docs: unknown[]) =>
  crypto.createHash('sha256').update(JSON.stringify(docs)).digest('hex').slice(0, 16)
const byId = (a: { _id: string }, b: { _id: string }) => a._id.localeCompare(b._id)

/** What still differs: queued writes, and collections whose mirror hash is not the server's. Empty: converged. */
export async function differences(
  server: E2EServer,
  token: string,
  devices: Device[],
  collections: string[],
): Promise<string[]> {
  const serverHashes = new Map<string, string>()
  for (const c of collections) serverHashes.set(c, hash(await serverList(server, token, c)))
  const out: string[] = []
  for (const d of devices) {
    for (const page of d.pages) {
      for (const c of collections) {
        const local = await localState(page, c)
        if (local.outbox > 0) out.push(`${d.name}: ${local.outbox} queued`)
        if (hash([...local.docs].sort(byId)) !== serverHashes.get(c)) out.push(`${d.name}: ${c} differs`)
      }
    }
  }
  return [...new Set(out)]
}

/** A server start (a restart when given its data dir); one that times out on a loaded machine is tried again. */
export async function start(env: Record<string, string>, dataDir?: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      // 90 s, not 30: a start takes ~20 s on a loaded 2-core machine before the soak's own browsers
      // and writers compete with it (the first 10-minute runs lost a restart to 4 × 30 s).
      return await startServer('none', env, dataDir, 90_000)
    } catch (e) {
      if (attempt >= 4) throw e
      console.log(`soak: start attempt ${attempt} failed (${String(e).split('\n')[0]}), again`)
    }
  }
}

/**
 * The PostgreSQL store's environment for its two instances: one database, and one S3 bucket (s3rver)
 * for their files, as docs/operating/storage.md requires of several instances (each its own data dir refused
 * the uploads of a folder made through the other).
 */
export async function postgresStore(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const pg = await startTestPostgres()
  const s3 = await startTestS3()
  const c = s3.config()
  const env = {
    DATABASE_URL: await pg.newDatabase(),
    MOMENTUM_S3_BUCKET: c.bucket,
    MOMENTUM_S3_ENDPOINT: c.endpoint!,
    MOMENTUM_S3_ACCESS_KEY_ID: c.accessKeyId!,
    MOMENTUM_S3_SECRET_ACCESS_KEY: c.secretAccessKey!,
    MOMENTUM_S3_PREFIX: c.prefix,
  }
  const close = async () => {
    await pg.close()
    await s3.close()
  }
  return { env, close }
}

/** true for the first write request (of those `only` matches) only, then the proxy relays again. */
export function dropOnce(proxy: SocketProxy, only?: RegExp) {
  return (method: string, url: string) => {
    if (method === 'GET' || method === 'HEAD' || (only && !only.test(url))) return false
    proxy.dropAfterApply = null
    return true
  }
}

export async function ack(p: Promise<{ ok: boolean; error?: string }>): Promise<Ack> {
  try {
    const r = await p
    return r.ok ? 'acked' : 'refused'
  } catch {
    return 'unknown' // the tab closed under the call: the write may or may not be stored
  }
}

export async function openTab(
  context: BrowserContext,
  proxy: SocketProxy,
  server: E2EServer,
  token: string,
): Promise<Page> {
  const page = await context.newPage()
  await openLoggedIn(page, proxy.via(server), token, '/')
  // On a loaded machine a start can stall (a worker script fetched through a cut or stalled link):
  // one reload, as a person would.
  await engineReady(page).catch(async () => {
    await page.reload()
    await engineReady(page)
  })
  return page
}

export async function openDevice(
  browser: Browser,
  name: string,
  viewport: { width: number; height: number },
  tabs: number,
  proxy: SocketProxy,
  server: E2EServer,
  token: string,
): Promise<Device> {
  const context = await browser.newContext({ viewport })
  const pages: Page[] = []
  for (let i = 0; i < tabs; i++) pages.push(await openTab(context, proxy, server, token))
  expect(await pages[0]!.evaluate(() => (window as unknown as HandleWindow).__momentum?.mode())).toBeTruthy()
  return { name, context, proxy, pages, collection: `data/soak-${name}` }
}

export async function serverList(server: E2EServer, token: string, collection: string) {
  const res = await server.api<Array<{ _id: string }>>(`/api/${collection}?limit=5000`, { token })
  if (res.status === 404) return []
  if (res.status !== 200) throw new Error(`GET /api/${collection}: ${res.status}`)
  return [...res.body].sort(byId) as Array<{ _id: string; [k: string]: unknown }>
}
