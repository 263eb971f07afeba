/** Navigation inside the running console, for specs behind a real cut. */
import type { Page } from '@playwright/test'

/** Another screen without a reload (none is possible while cut off): the router follows history. */
export async function goInPage(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to)
    dispatchEvent(new PopStateEvent('popstate'))
  }, `/ui${path}`)
}
