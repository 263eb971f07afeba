/**
 * Every console route at 375 px (issue 36, "a screenshot review at 375 px of every new section"), as
 * the admin on the sample seed, from the console's own route table (route-walk.ts): the page itself
 * never scrolls sideways (a wide table scrolls inside its own box, or turns into cards), and no
 * button, link or field sticks out past the screen's edge. Each route's screenshot is written to
 * /tmp/shots/phone-<route>.png for the person who reviews them.
 */
import type { Page } from '@playwright/test'
import { expect, openLoggedIn, test } from './fixtures'
import { engineReady } from './pages/sync-panel'
import { everyRoute } from './route-walk'
import { PHONE } from './widths'

test.use({ seed: 'sample', viewport: PHONE })

/** What overflows the 375 px screen: the page's own width, and controls past its right or left edge. */
async function overflowOn(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const found: string[] = []
    if (document.documentElement.scrollWidth > width + 1)
      found.push(`the page is ${document.documentElement.scrollWidth} px wide`)
    const controls = document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, h1')
    for (const el of controls) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      // Inside a box that scrolls sideways (a table, a tab strip) it is reachable by that box's scroll.
      let scroller: HTMLElement | null = el.parentElement
      while (scroller && scroller !== document.body) {
        const { overflowX } = getComputedStyle(scroller)
        if (overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden') break
        scroller = scroller.parentElement
      }
      if (scroller && scroller !== document.body) continue
      if (box.right > width + 1 || box.left < -1) {
        const name = (el.getAttribute('aria-label') ?? el.innerText ?? el.tagName).trim().slice(0, 40)
        found.push(
          `${el.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}–${Math.round(box.right)} px`,
        )
      }
    }
    return found
  })
}

/** Screens below a route's one sample path: a document, a schema editor, a folder. */
const BELOW_ROUTES = [
  '/data/contacts/contact-0001',
  '/data/contacts/~schema',
  '/data/inspections/~schema',
  '/storage/samples',
]

const slug = (path: string) => path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'

test('no route of the console is wider than a 375 px phone', async ({ page, server }) => {
  test.setTimeout(300_000)
  const admin = await server.login()
  const paths = [...(await everyRoute(server, admin)).map(({ path }) => path), ...BELOW_ROUTES]
  await openLoggedIn(page, server, admin, '/')
  await engineReady(page)

  const report: Record<string, string[]> = {}
  for (const path of paths) {
    await page.goto(`${server.ui}${path}`)
    await expect(page.locator('main h1, h1').first()).toBeVisible()
    // Lists fill from the mirror after the first frame: let them settle before measuring.
    await page.waitForTimeout(700)
    const found = await overflowOn(page)
    if (found.length) report[path] = found
    await page.screenshot({ path: `/tmp/shots/phone-${slug(path)}.png`, fullPage: true })
  }
  expect(report).toEqual({})
})
