/**
 * Filling a form with no network (issue 17), at desktop and 375 px: with the server cut off by the
 * socket proxy (a real cut for the page, its workers and the service worker), five submissions of a
 * link form made logged out are kept on the device, survive a reload (the form itself opens from the
 * device's copy), and arrive exactly once each when the network returns.
 */
import { FORMS_TEXT } from '../../src/shared/texts'
import { FillPage } from './pages/forms'
import { serviceWorkerReady } from './pages/service-worker'
import { expect, test } from './proxied'
import { WIDTHS } from './widths'

type Doc = Record<string, unknown>

for (const { name, viewport } of WIDTHS) {
  test(`five submissions made offline survive a reload and arrive once (${name})`, async ({
    browser,
    server,
    link,
    through,
  }) => {
    test.setTimeout(180_000)
    const admin = await server.login()
    const id = `offline-${name}`
    const created = await server.api(`/api/forms`, {
      token: admin,
      json: {
        _id: id,
        title: 'Field report',
        target: `data/${id}`,
        fill: 'link',
        fields: [
          { name: 'note', label: 'Note', type: 'text', required: true },
          { name: 'count', label: 'Count', type: 'number' },
        ],
      },
    })
    expect(created.status).toBe(201)

    const context = await browser.newContext({ viewport })
    try {
      const page = await context.newPage()
      await page.goto(`${through.ui}/forms/${id}`)
      await expect(page.getByRole('heading', { name: 'Field report' })).toBeVisible()
      await serviceWorkerReady(page)
      await expect(page.getByRole('heading', { name: 'Field report' })).toBeVisible()
      const filler = new FillPage(page)

      link.offline = true
      for (let i = 1; i <= 5; i++) {
        await filler.field('Note').fill(`offline ${i}`)
        await filler.field('Count').fill(String(i))
        await filler.send()
        await expect(page.getByText(FORMS_TEXT.queued)).toBeVisible()
        await expect(filler.queue).toHaveText(FORMS_TEXT.waiting(i))
        await filler.again()
      }
      await page.screenshot({ path: test.info().outputPath(`queued-${name}.png`), fullPage: true })
      expect((await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body).toHaveLength(0)

      // Still offline: the page reloads from the service worker, the form from this device's copy.
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Field report' })).toBeVisible()
      await expect(page.getByText(FORMS_TEXT.cachedCopy)).toBeVisible()
      await expect(filler.queue).toHaveText(FORMS_TEXT.waiting(5))

      link.offline = false
      await expect(filler.queue).toHaveCount(0, { timeout: 60_000 })
      const arrived = async () =>
        ((await server.api<Doc[]>(`/api/data/${id}`, { token: admin })).body ?? []).map((d) => d.note).sort()
      expect(await arrived()).toEqual(['offline 1', 'offline 2', 'offline 3', 'offline 4', 'offline 5'])

      // Exactly once: another reload and the queue's next passes send nothing again.
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Field report' })).toBeVisible()
      await page.waitForTimeout(3_000)
      expect(await arrived()).toHaveLength(5)
    } finally {
      await context.close()
    }
  })
}
