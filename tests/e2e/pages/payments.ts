/** Page models of /payments (Transactions) and /payments/{id} (one transaction, its refund form). */
import { expect, type Locator, type Page } from '@playwright/test'
import { TRANSACTIONS_TEXT } from '../../../src/shared/texts'

export class TransactionsPage {
  readonly table: Locator
  readonly heading: Locator
  readonly count: Locator
  readonly chart: Locator
  readonly chartSum: Locator
  readonly exportCsv: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Transactions' })
    this.heading = page.getByRole('heading', { name: 'Transactions', level: 1 })
    this.count = this.heading.locator('xpath=following-sibling::p')
    this.chart = page.getByRole('img', { name: /Net takings per day/ })
    this.chartSum = page.getByTestId('day-totals-sum')
    this.exportCsv = page.getByRole('button', { name: 'Export CSV' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/payments`)
    await expect(this.heading).toBeVisible()
  }

  /** The row whose text contains `text` (a customer, an item name). */
  row(text: string | RegExp): Locator {
    return this.table.getByRole('row').filter({ hasText: text })
  }

  filter(label: 'Status' | 'Customer' | 'Total from' | 'Total to' | 'From date' | 'To date'): Locator {
    return this.page.getByRole('group', { name: 'Filter transactions' }).getByLabel(label)
  }

  /** Clicks Export CSV and answers the downloaded file's text. */
  async downloadCsv(): Promise<string> {
    const download = this.page.waitForEvent('download')
    await this.exportCsv.click()
    const file = await (await download).createReadStream()
    const chunks: Buffer[] = []
    for await (const c of file) chunks.push(c as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
}

export class TransactionPage {
  readonly status: Locator
  readonly timeline: Locator
  readonly paid: Locator
  readonly refunded: Locator
  readonly amount: Locator
  readonly allLeft: Locator
  readonly refund: Locator
  readonly offlineNotice: Locator
  readonly nothingLeft: Locator
  constructor(readonly page: Page) {
    this.status = page.getByRole('heading', { level: 1 }).locator('[data-status]')
    this.timeline = page.getByRole('list', { name: 'Events' })
    this.paid = page.getByTestId('tx-paid')
    this.refunded = page.getByTestId('tx-refunded')
    this.amount = page.getByLabel(/^Amount \(/)
    this.allLeft = page.getByRole('button', { name: 'All that is left' })
    this.refund = page.getByRole('button', { name: /^Refund/ })
    this.offlineNotice = page.getByText(TRANSACTIONS_TEXT.refundNeedsNetwork)
    this.nothingLeft = page.getByText(TRANSACTIONS_TEXT.nothingToRefund)
  }

  /** Refunds `amount` (major units) or all that is left, through the confirmation dialog. */
  async refundAmount(amount: string | 'all', shown: string): Promise<void> {
    if (amount === 'all') await this.allLeft.click()
    else await this.amount.fill(amount)
    await expect(this.refund).toHaveText(TRANSACTIONS_TEXT.refundButton(shown))
    await this.refund.click()
    const dialog = this.page.getByRole('dialog')
    await expect(dialog).toContainText(TRANSACTIONS_TEXT.refundTitle)
    await dialog.getByRole('button', { name: TRANSACTIONS_TEXT.refundButton(shown) }).click()
    await expect(this.page.getByText(TRANSACTIONS_TEXT.refunded(shown)).last()).toBeVisible()
  }
}
