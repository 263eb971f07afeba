/**
 * Toasts in tests: closed before an action whose own toast a test waits for, so an earlier toast
 * with the same words (a create's "Template x was saved successfully" before the edit's) is not
 * taken for it.
 */
import { expect, type Page } from '@playwright/test'

export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.mc-toast').getByRole('button')
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined)
}

/**
 * Ctrl/Cmd+S, then the save's toast: "{thing} was saved successfully" once the server accepted it
 * (a queued save's toast turns into that, issue 36), or offline the neutral "Saved on this device".
 */
export async function saveAndWait(page: Page, thing: string, offline = false): Promise<void> {
  await dismissToasts(page)
  await page.keyboard.press('ControlOrMeta+s')
  const text = offline ? 'Saved on this device' : `${thing} was saved successfully`
  await expect(page.locator('.mc-toast').getByText(text)).toBeVisible()
}
