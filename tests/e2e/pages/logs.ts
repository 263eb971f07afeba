/** Page model of the Client Logs and Server Logs screens. */
import { expect, type Locator, type Page } from '@playwright/test'

export class LogsPage {
  readonly heading: Locator
  readonly rows: Locator
  readonly search: Locator
  readonly summary: Locator
  readonly dialog: Locator
  readonly toasts: Locator

  constructor(readonly page: Page) {
    this.heading = page.locator('#page-heading')
    this.rows = page.locator('tbody.vt-body tr.vt-row')
    this.search = page.getByRole('searchbox', { name: 'Search logs' })
    this.summary = page.locator('.screen-head p.muted').first()
    this.dialog = page.locator('dialog.mc-dialog')
    this.toasts = page.locator('.mc-toast')
  }

  level(name: string): Locator {
    return this.page.locator('.level-chips').getByRole('button', { name, exact: true })
  }

  /** Shows only these levels. */
  async onlyLevels(...levels: string[]): Promise<void> {
    for (const l of ['ERROR', 'WARN', 'INFO', 'LOG', 'DEBUG']) {
      const chip = this.level(l)
      const pressed = (await chip.getAttribute('aria-pressed')) === 'true'
      if (pressed !== levels.includes(l)) await chip.click()
    }
  }

  /** [level, message] of the rendered lines, top to bottom. */
  async lines(): Promise<[string, string][]> {
    return this.rows.evaluateAll((rows) =>
      rows
        .sort((a, b) => Number((a as HTMLElement).dataset.index) - Number((b as HTMLElement).dataset.index))
        .map((r) => {
          const cells = r.querySelectorAll('td')
          return [
            (cells[1] as HTMLElement).innerText.trim(),
            (cells[2]?.querySelector('.log-text')?.firstChild?.textContent ?? '').trim(),
          ] as [string, string]
        }),
    )
  }

  async range(from: string, to: string): Promise<void> {
    await this.page.getByLabel('From', { exact: true }).fill(from)
    await this.page.getByLabel('To', { exact: true }).fill(to)
  }

  async clear(confirmLabel: string): Promise<void> {
    await this.page.getByRole('button', { name: /^Clear/ }).click()
    await expect(this.dialog).toBeVisible()
    await this.dialog.getByRole('button', { name: confirmLabel, exact: true }).click()
  }
}
