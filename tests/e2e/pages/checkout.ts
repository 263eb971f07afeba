/** Page model of the hosted checkout popup (/ui/checkout?token=…&host=…, no shell). */
import type { Locator, Page } from '@playwright/test'
import { CHECKOUT_TEXT } from '../../../src/shared/texts'

export class CheckoutPage {
  readonly heading: Locator
  readonly items: Locator
  readonly total: Locator
  readonly discount: Locator
  readonly code: Locator
  readonly apply: Locator
  readonly card: Locator
  readonly pay: Locator
  readonly testBanner: Locator
  readonly alert: Locator
  /** The error line of the card form only (a console toast is an alert too). */
  readonly payAlert: Locator
  readonly done: Locator
  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: CHECKOUT_TEXT.title })
    this.items = page.getByTestId('checkout-items')
    this.total = page.getByTestId('checkout-total')
    this.discount = page.getByTestId('checkout-discount')
    this.code = page.getByLabel(CHECKOUT_TEXT.codeLabel)
    this.apply = page.getByRole('button', { name: CHECKOUT_TEXT.apply })
    this.card = page.getByLabel(CHECKOUT_TEXT.cardLabel)
    this.pay = page.getByRole('button', { name: /^Pay / })
    this.testBanner = page.getByRole('note')
    this.alert = page.getByRole('alert')
    this.payAlert = page.locator('form.checkout-pay').getByRole('alert')
    this.done = page.getByRole('status').filter({ hasText: CHECKOUT_TEXT.paid })
  }

  async applyCode(code: string): Promise<void> {
    await this.code.fill(code)
    await this.apply.click()
  }

  async payWith(card: string): Promise<void> {
    await this.card.fill(card)
    await this.pay.click()
  }
}
