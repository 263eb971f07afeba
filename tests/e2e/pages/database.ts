/** Page model of the Database screens: collection list, the virtualized table, the document editor. */
import { expect, type Locator, type Page } from '@playwright/test'

export class DatabasePage {
  readonly heading: Locator
  readonly table: Locator
  readonly rows: Locator
  readonly search: Locator
  readonly filterField: Locator
  readonly filterOp: Locator
  readonly filterValue: Locator
  readonly summary: Locator
  readonly dialog: Locator
  readonly toasts: Locator
  readonly saveButton: Locator

  constructor(readonly page: Page) {
    this.heading = page.locator('#page-heading')
    this.table = page.locator('table.vt-table')
    this.rows = page.locator('tbody.vt-body tr.vt-row')
    this.search = page.getByRole('searchbox', { name: 'Search documents' })
    this.filterField = page.getByRole('combobox', { name: 'Filter field' })
    this.filterOp = page.getByRole('combobox', { name: 'Filter operator' })
    this.filterValue = page.getByRole('textbox', { name: 'Filter value' })
    this.summary = page.locator('.screen-head p.muted').first()
    this.dialog = page.locator('dialog.mc-dialog')
    this.toasts = page.locator('.mc-toast')
    this.saveButton = page.locator('header.toolbar').getByRole('button', { name: 'Save' })
  }

  collection(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Collections' })
      .getByRole('link', { name: new RegExp(`^${name}\\b`) })
  }

  row(id: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: id, exact: true }) })
  }

  /** Text of column `n` (0 = first data column after the checkbox) of the rendered rows, in order. */
  async columnTexts(n: number): Promise<string[]> {
    return this.rows.evaluateAll(
      (rows, col) =>
        rows
          .map((r) => ({ y: Number((r as HTMLElement).dataset.index), cells: r.querySelectorAll('td') }))
          .sort((a, b) => a.y - b.y)
          .map((r) => (r.cells[col + 1] as HTMLElement | undefined)?.innerText.trim() ?? ''),
      n,
    )
  }

  async sortBy(column: string): Promise<void> {
    await this.table.getByRole('button', { name: column, exact: true }).click()
  }

  async filter(field: string, op: string, value: string): Promise<void> {
    await this.filterField.fill(field)
    await this.filterOp.selectOption({ label: op })
    await this.filterValue.fill(value)
  }

  /** Closes open toasts so screenshots show the screen (a toast from another area may be up). */
  async closeToasts(): Promise<void> {
    await this.toasts.locator('button[aria-label="Close"]').evaluateAll((bs) => {
      for (const b of bs) (b as HTMLButtonElement).click()
    })
  }

  async confirm(button: RegExp | string): Promise<void> {
    await expect(this.dialog).toBeVisible()
    await this.dialog.getByRole('button', { name: button }).click()
  }
}
