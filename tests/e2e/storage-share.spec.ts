/**
 * Share links end to end (issue 12 "a share link works logged out and stops working after it
 * expires"): a link made through POST /api/share opens /ui/download in a browser with no session, shows
 * the file's name, size and type, downloads the exact bytes with a progress bar that moves through
 * intermediate percentages (the network is throttled so it has time to), at desktop and 375 px; after
 * the link expires the page says so, also when it was opened before and the button is pressed after;
 * a forged link is "not valid"; the file browser's "Copy link" (H4) gives a link that works elsewhere.
 */
import crypto from 'node:crypto'
import { DOWNLOAD_TEXT, STORAGE_TEXT } from '../../src/shared/texts'
import { axeViolations } from './axe'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { DownloadPage } from './pages/download'
import { StoragePage } from './pages/storage'
import { WIDTHS } from './widths'

const SHOTS = 'test-results/screenshots'

/** Uploads through the real multipart route and returns the admin token. */
async function uploadFile(server: E2EServer, folder: string, name: string, bytes: Buffer): Promise<string> {
  const token = await server.login()
  await server.api(`/api/storage/${folder}`, { token, json: { directory: true } })
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  const res = await fetch(`${server.url}/api/storage/${folder}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  expect(res.status).toBe(201)
  return token
}

async function shareLink(
  server: E2EServer,
  token: string,
  path: string,
  expiresIn?: number,
): Promise<string> {
  const res = await server.api<{ url: string }>('/api/share', {
    token,
    json: { root: 'storage', path, expiresIn },
  })
  expect(res.status).toBe(201)
  return res.body.url
}

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport })

    test('a share link downloads the exact bytes logged out, with progress', async ({ page, server }) => {
      const bytes = crypto.randomBytes(3 * 1024 * 1024 + 123)
      const admin = await uploadFile(server, `share-${name}`, 'quarterly report.bin', bytes)
      const url = await shareLink(server, admin, `share-${name}/quarterly report.bin`)

      // A fresh context: no session anywhere in this browser.
      const download = new DownloadPage(page)
      await download.open(server.url, url)
      await download.expectFile('quarterly report.bin')
      await expect(download.size).toHaveText('3 MB')
      await expect(download.type).toHaveText('application/octet-stream')
      await expect(page.getByRole('navigation')).toHaveCount(0)
      expect(await axeViolations(page)).toEqual([])
      const box = await page.locator('.download-card').boundingBox()
      expect(box!.width).toBeLessThanOrEqual(viewport.width)

      // ~1 MB/s: long enough for the bar to be seen between 0 and 100.
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: 1024 * 1024,
        uploadThroughput: -1,
      })
      await download.recordPercentages()
      const saved = await download.download()
      expect(saved.name).toBe('quarterly report.bin')
      expect(saved.bytes.equals(bytes)).toBe(true)
      await expect(download.percent).toHaveText('100%')
      await expect(download.progress).toHaveAttribute('value', String(bytes.length))
      await expect(page.getByRole('status').filter({ hasText: DOWNLOAD_TEXT.done })).toBeVisible()
      const seen = await download.percentages()
      expect(
        seen.some((p) => p > 0 && p < 100),
        `percentages seen: ${seen}`,
      ).toBe(true)
      expect(seen).toEqual([...seen].sort((a, b) => a - b))
      await page.screenshot({ path: `${SHOTS}/download-${viewport.width}.png`, fullPage: true })
    })
  })
}

test('after expiry the page says the link has expired, also when opened before', async ({ page, server }) => {
  const admin = await uploadFile(server, 'expiring', 'notes.txt', Buffer.from('short-lived notes'))
  // 10 s, not less: on a loaded machine opening the page took longer than 2 s, so the link had already
  // expired before the "still valid" half of the test looked at it.
  const url = await shareLink(server, admin, 'expiring/notes.txt', 10)
  const token = new URL(url, server.url).searchParams.get('t')!
  const download = new DownloadPage(page)
  await download.open(server.url, url)
  await download.expectFile('notes.txt')
  await expect(download.size).toHaveText('17 B')
  // Wait for the server, not a clock: the link is expired once the API says 410.
  await expect
    .poll(async () => (await server.api(`/api/share/${token}`)).status, { timeout: 20_000 })
    .toBe(410)
  await download.button.click()
  await download.expectRefused(DOWNLOAD_TEXT.expiredTitle, STORAGE_TEXT.shareExpired)
  await page.reload()
  await download.expectRefused(DOWNLOAD_TEXT.expiredTitle, STORAGE_TEXT.shareExpired)
  await expect(download.button).toHaveCount(0)
})

test('a forged or missing link is not valid', async ({ page, server }) => {
  const admin = await uploadFile(server, 'forged', 'a.txt', Buffer.from('alpha'))
  const url = new URL(await shareLink(server, admin, 'forged/a.txt'), server.url)
  const [head, body, sig] = url.searchParams.get('t')!.split('.') as [string, string, string]
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
  const tampered = Buffer.from(JSON.stringify({ ...claims, path: 'forged/b.txt' })).toString('base64url')
  const download = new DownloadPage(page)
  for (const t of [`${head}.${body}.${sig.slice(0, -4)}AAAA`, `${head}.${tampered}.${sig}`]) {
    await page.goto(`${server.ui}/download?t=${t}`)
    await download.expectRefused(DOWNLOAD_TEXT.invalidTitle, STORAGE_TEXT.shareInvalid)
  }
  await page.goto(`${server.ui}/download`)
  await download.expectRefused(DOWNLOAD_TEXT.invalidTitle, DOWNLOAD_TEXT.missing)
  await page.setViewportSize({ width: 375, height: 740 })
  await page.screenshot({ path: `${SHOTS}/download-invalid-375.png`, fullPage: true })
})

test("the file browser's Copy link gives a link that works in a browser with no session", async ({
  page,
  server,
  context,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const bytes = crypto.randomBytes(64 * 1024)
  const admin = await uploadFile(server, 'copied', 'photo.raw', bytes)
  await openLoggedIn(page, server, admin, '/storage/copied')
  const storage = new StoragePage(page)
  await expect(storage.row('photo.raw')).toBeVisible()
  await storage.menu('photo.raw', 'Copy link')
  // The dialog asks how long the link works (7 days unless chosen); this one for an hour.
  const share = storage.dialog('Share photo.raw')
  await expect(share.getByLabel('The link works for')).toHaveValue(String(7 * 24 * 3600))
  await share.getByLabel('The link works for').selectOption({ label: '1 hour' })
  const made = page.waitForResponse((r) => r.url().endsWith('/api/share') && r.request().method() === 'POST')
  await share.getByRole('button', { name: 'Copy link' }).click()
  const { expires } = (await (await made).json()) as { expires: string }
  const left = Date.parse(expires) - Date.now()
  expect(left).toBeGreaterThan(55 * 60_000)
  expect(left).toBeLessThanOrEqual(60 * 60_000)
  await expect(page.getByText(/^Link copied to the clipboard; it works until /)).toBeVisible()
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/ui\/download\?t=/)
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(new URL(link).origin).toBe(server.url)

  const stranger = await browser.newContext()
  try {
    const download = new DownloadPage(await stranger.newPage())
    await download.page.goto(link)
    await download.expectFile('photo.raw')
    await expect(download.size).toHaveText('64 KB')
    const saved = await download.download()
    expect(saved.bytes.equals(bytes)).toBe(true)
  } finally {
    await stranger.close()
  }
})
