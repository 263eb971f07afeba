/**
 * The install prompt (SPEC §2, §4, §9) in the real console: a phone-sized touch browser sees it about
 * 60 s after load, once; a desktop never does.
 */
import { INSTALL_PROMPT_DELAY_MS } from '../../src/shared/constants'
import { FEEDBACK_TEXT } from '../../src/shared/texts'
import { expect, test } from './fixtures'

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true, userAgent: ANDROID_UA })

  test('appears after the delay with the Android steps, and stays away once dismissed', async ({
    page,
    server,
  }) => {
    await page.clock.install()
    await page.goto(`${server.ui}/login`)
    // The app must be mounted (its 60 s timer started) before the fake clock runs past the delay.
    await expect(page.getByLabel('Username')).toBeVisible()
    await page.clock.pauseAt(Date.now() + 1000)
    const sheet = page.getByRole('dialog', { name: /^Install / })
    await page.clock.runFor(INSTALL_PROMPT_DELAY_MS - 5000)
    await expect(sheet).toHaveCount(0)
    await page.clock.runFor(5000)
    await expect(sheet).toBeVisible()
    await expect(sheet.locator('img, svg').first()).toBeVisible()
    await expect(sheet).toContainText(FEEDBACK_TEXT.installExplain)
    await expect(sheet.getByRole('listitem')).toHaveText([...FEEDBACK_TEXT.installAndroid])

    await sheet.getByRole('button', { name: FEEDBACK_TEXT.close }).click()
    await expect(sheet).toHaveCount(0)
    await page.reload()
    await page.clock.runFor(INSTALL_PROMPT_DELAY_MS * 2)
    await expect(page.getByRole('heading', { level: 1 }).or(page.locator('form')).first()).toBeVisible()
    await expect(sheet).toHaveCount(0)
  })
})

test.describe('on an iPhone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true, userAgent: IPHONE_UA })

  test('shows the Share steps', async ({ page, server }) => {
    await page.clock.install()
    await page.goto(`${server.ui}/login`)
    // The app must be mounted (its 60 s timer started) before the fake clock runs past the delay.
    await expect(page.getByLabel('Username')).toBeVisible()
    await page.clock.pauseAt(Date.now() + 1000)
    await page.clock.runFor(INSTALL_PROMPT_DELAY_MS)
    const sheet = page.getByRole('dialog', { name: /^Install / })
    await expect(sheet.getByRole('listitem')).toHaveText([...FEEDBACK_TEXT.installOther])
  })
})

test('never appears on a desktop', async ({ page, server }) => {
  await page.clock.install()
  await page.goto(`${server.ui}/login`)
  await page.clock.pauseAt(Date.now() + 1000)
  await page.clock.runFor(INSTALL_PROMPT_DELAY_MS * 2)
  await expect(page.locator('form').first()).toBeVisible()
  await expect(page.getByRole('dialog', { name: /^Install / })).toHaveCount(0)
})
