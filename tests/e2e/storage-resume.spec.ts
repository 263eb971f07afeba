/**
 * A 50 MB upload whose connection is cut in the middle resumes where it stopped (docs/contributing/storage.md):
 * the console talks to the server through a TCP proxy that counts the bytes the browser sends and cuts
 * every connection once 25 MB have gone through. The upload (tus, tus-js-client in the page) then asks
 * the server for its offset and sends only the rest: the bytes the server received stay well below the
 * 2 × 50 MB a restart would cost, the second PATCH starts past 0, and the stored file is byte-identical.
 */
import { createHash } from 'node:crypto'
import { type ByteProxy, startByteProxy } from './byte-proxy'
import { expect, openLoggedIn, test } from './fixtures'
import { type FilesWindow, filesDatabase, listFolder, queueRows, UploadsSection } from './pages/storage-queue'
import { engineReady, SyncPanel } from './pages/sync-panel'

const MB = 1024 * 1024
const SIZE = 50 * MB

/** The file's bytes, made the same way in the page and here. */
function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  let x = 2463534242
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    bytes[i] = x & 255
  }
  return bytes
}

let proxy: ByteProxy
test.beforeEach(async ({ server }) => {
  proxy = await startByteProxy(server.url)
})
test.afterEach(async () => {
  await proxy.close()
})

test('a 50 MB upload cut in the middle resumes from the server offset instead of restarting', async ({
  page,
  server,
}) => {
  test.setTimeout(180_000)
  const token = await server.login()
  await openLoggedIn(page, proxy.via(server), token, '/')
  await engineReady(page)
  const database = await filesDatabase(page)
  const name = `big-${Date.now().toString(36)}.bin`

  // The tus requests in order: [method, Upload-Offset sent (PATCH) or answered (HEAD)].
  const tus: [string, number][] = []
  page.on('response', (res) => {
    const req = res.request()
    if (!req.url().includes('/api/uploads/')) return
    if (req.method() === 'PATCH') tus.push(['PATCH', Number(req.headers()['upload-offset'])])
    if (req.method() === 'HEAD') tus.push(['HEAD', Number(res.headers()['upload-offset'])])
  })

  const before = proxy.sent()
  proxy.cutAt(before + 25 * MB)
  await page.evaluate(
    async ({ size, name }) => {
      const bytes = new Uint8Array(size)
      let x = 2463534242
      for (let i = 0; i < size; i++) {
        x ^= x << 13
        x ^= x >>> 17
        x ^= x << 5
        bytes[i] = x & 255
      }
      await (window as unknown as FilesWindow).__momentumFiles!.enqueueUploads('storage', [
        { file: new File([bytes], name, { type: 'application/octet-stream' }), name, folder: '' },
      ])
    },
    { size: SIZE, name },
  )

  await expect
    .poll(async () => (await queueRows(page, database)).find((r) => r.op.name === name)?.status, {
      timeout: 150_000,
    })
    .toBe('done')
  expect(proxy.cuts()).toBe(1)
  const sent = proxy.sent() - before
  // All of it once, plus what was in flight when the link broke (Chromium may also resend the broken
  // PATCH once on a new connection, which the server refuses at its offset): far from a second 50 MB.
  expect(sent).toBeGreaterThan(SIZE)
  expect(sent).toBeLessThan(SIZE * 1.5)
  // After the cut a HEAD learnt the server's offset, well into the file, and the next PATCH started
  // exactly there.
  const head = tus.findIndex(([method]) => method === 'HEAD')
  expect(head, JSON.stringify(tus)).toBeGreaterThan(0)
  expect(tus[head]![1]).toBeGreaterThan(10 * MB)
  expect(tus[head + 1]).toEqual(['PATCH', tus[head]![1]])

  const res = await fetch(`${server.url}/api/storage/${name}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  const stored = new Uint8Array(await res.arrayBuffer())
  expect(stored.length).toBe(SIZE)
  const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
  expect(digest(stored)).toBe(digest(pattern(SIZE)))
})

test('cancelling a running upload stops it and deletes the partial upload on the server', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000)
  const token = await server.login()
  await openLoggedIn(page, proxy.via(server), token, '/')
  await engineReady(page)
  const database = await filesDatabase(page)
  const name = `cancel-${Date.now().toString(36)}.bin`

  // The link goes silent after 10 MB: the upload is running, its address known, far from done.
  proxy.holdAt(proxy.sent() + 10 * MB)
  await page.evaluate(
    async ({ size, name }) => {
      await (window as unknown as FilesWindow).__momentumFiles!.enqueueUploads('storage', [
        { file: new File([new Uint8Array(size)], name), name, folder: '' },
      ])
    },
    { size: 30 * MB, name },
  )
  await expect
    .poll(async () => (await queueRows(page, database)).find((r) => r.op.name === name))
    .toMatchObject({ status: 'running', uploadUrl: expect.stringContaining('/api/uploads/') })
  const { uploadUrl } = (await queueRows(page, database)).find((r) => r.op.name === name)!
  const head = () =>
    fetch(uploadUrl!.replace(proxy.url, server.url), {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' },
    }).then((r) => r.status)
  expect(await head()).toBe(200)

  await new SyncPanel(page).open()
  const item = new UploadsSection(page).item(name)
  await item.getByRole('button', { name: `Cancel ${name}` }).click()
  await expect(item).toHaveAttribute('data-status', 'cancelled')
  // The silent connections finally break: the cancel's DELETE, if it was stuck on one, is sent again.
  proxy.dropHeld()
  await expect.poll(head, { timeout: 30_000 }).toBe(404)
  expect((await listFolder(server, token)).map((e) => e.name)).not.toContain(name)
})
