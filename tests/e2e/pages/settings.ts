/** Page model of the Settings screen. */
import type { Locator, Page } from '@playwright/test'

export class SettingsPage {
  readonly heading: Locator
  readonly saveButton: Locator
  readonly dialog: Locator
  readonly toasts: Locator
  readonly preview: Locator

  constructor(readonly page: Page) {
    this.heading = page.locator('#page-heading')
    this.saveButton = page.locator('header.toolbar').getByRole('button', { name: 'Save' })
    this.dialog = page.locator('dialog.mc-dialog')
    this.toasts = page.locator('.mc-toast')
    this.preview = page.getByRole('figure', { name: 'Theme preview' })
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true })
  }
}
