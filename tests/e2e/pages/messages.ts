/** Page model of /messages: the composer (channel tabs, recipients, template, send) and the history. */
import { expect, type Locator, type Page } from '@playwright/test'

export class MessagesPage {
  readonly composer: Locator
  readonly history: Locator
  constructor(readonly page: Page) {
    this.composer = page.getByRole('region', { name: 'Compose' })
    this.history = page.getByRole('list', { name: 'Messages' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/messages`)
    await expect(this.page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible()
  }

  async channel(name: 'Email' | 'SMS' | 'Push' | 'Call'): Promise<void> {
    await this.composer.getByRole('tab', { name }).click()
    await expect(this.composer.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true')
  }

  /** Adds a recipient; retried while the mirror is still bringing users and groups in. */
  async addRecipient(entry: string, chip: string): Promise<void> {
    const input = this.composer.getByLabel('Add a recipient')
    await expect(async () => {
      await input.fill(entry)
      await input.press('Enter')
      await expect(this.composer.getByRole('list', { name: 'Recipients' }).getByText(chip)).toBeVisible({
        timeout: 1000,
      })
    }).toPass()
  }

  /** Picks a template by id; retried while the mirror brings the templates in. */
  async template(id: string): Promise<void> {
    const select = this.composer.getByLabel('Template')
    await expect(select.locator(`option[value="${id}"]`)).toHaveCount(1)
    await select.selectOption(id)
  }

  field(label: string): Locator {
    return this.composer.getByLabel(label, { exact: true })
  }

  async send(): Promise<void> {
    await this.composer.getByRole('button', { name: 'Send' }).click()
  }

  get status(): Locator {
    return this.composer.getByRole('status')
  }

  /** History entries of one recipient address (channel and address are the entry's name). */
  entries(to: string): Locator {
    return this.history.getByRole('listitem', { name: new RegExp(` to ${to.replace(/[+.]/g, '\\$&')}$`) })
  }
}
