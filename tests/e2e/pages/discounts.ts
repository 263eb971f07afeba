/** Page models of /discounts (codes) and /products, the payments console's catalogue (issue 14). */
import { expect, type Locator, type Page } from '@playwright/test'

export class DiscountsPage {
  readonly table: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Discount codes' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/discounts`)
    await expect(this.page.getByRole('heading', { name: 'Discount codes', level: 1 })).toBeVisible()
  }

  row(code: string): Locator {
    return this.table.getByRole('row').filter({ hasText: code })
  }

  /** Fills the "New discount code" form; `value` is a percent, or major units with `currency`. */
  async create(
    code: string,
    value: string,
    opts: { currency?: string; maxUses?: string } = {},
  ): Promise<void> {
    await this.page.getByRole('button', { name: 'New discount code' }).click()
    const form = this.page.getByRole('form', { name: 'New discount code' })
    await form.getByLabel('Code').fill(code)
    if (opts.currency) {
      await form.getByLabel('Kind').selectOption('fixed')
      await form.getByLabel('Amount').fill(value)
      await form.getByLabel('Currency').fill(opts.currency)
    } else {
      await form.getByLabel('Percent').fill(value)
    }
    if (opts.maxUses) await form.getByLabel('Maximum uses').fill(opts.maxUses)
    await form.getByRole('button', { name: 'Create discount code' }).click()
    await expect(this.page).toHaveURL(new RegExp(`/discounts/${code}$`))
  }
}

export class ProductsPage {
  readonly table: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Products' })
  }

  async create(name: string, price: string, currency = 'EUR'): Promise<string> {
    await this.page.getByRole('button', { name: 'New product' }).click()
    const form = this.page.getByRole('form', { name: 'New product' })
    await form.getByLabel('Name').fill(name)
    await form.getByLabel('Price').fill(price)
    await form.getByLabel('Currency').fill(currency)
    await form.getByRole('button', { name: 'Create product' }).click()
    await expect(this.page).toHaveURL(/\/products\/[^/]+$/)
    return decodeURIComponent(new URL(this.page.url()).pathname.split('/').pop()!)
  }
}

/** Ctrl/Cmd+S on an editor; offline the toast says the save stays on this device until it is sent. */
export async function saveEditor(page: Page, thing: string, offline = false): Promise<void> {
  await page.keyboard.press('ControlOrMeta+s')
  const toast = offline ? 'Saved on this device' : `${thing} was saved successfully`
  await expect(page.getByText(toast).last()).toBeVisible()
}

export async function deleteRecord(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete' }).first().click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
}
