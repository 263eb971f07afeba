/** Page models of /groups and /groups/{id} with its permission editor and preview. */
import { expect, type Locator, type Page } from '@playwright/test'

export class GroupsPage {
  readonly table: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Groups' })
  }

  async create(id: string, name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New group' }).click()
    const form = this.page.getByRole('form', { name: 'New group' })
    await form.getByLabel('Group id').fill(id)
    await form.getByLabel('Name', { exact: true }).fill(name)
    await form.getByRole('button', { name: 'Create group' }).click()
  }
}

export class GroupPage {
  readonly summary: Locator
  readonly tester: Locator
  constructor(readonly page: Page) {
    this.summary = page.getByTestId('perm-summary')
    this.tester = page.getByLabel('Try a path')
  }

  async open(ui: string, id: string): Promise<void> {
    await this.page.goto(`${ui}/groups/${encodeURIComponent(id)}`)
    await expect(this.page.getByRole('heading', { name: 'Permissions' })).toBeVisible()
  }

  async addPermissions(entries: string[]): Promise<void> {
    for (const e of entries) {
      await this.page.getByRole('button', { name: 'Add permission' }).click()
      await this.page
        .getByRole('textbox', { name: /^Permission \d+$/ })
        .last()
        .fill(e)
    }
  }

  /** The preview's verdict per method letter for a path typed into the tester. */
  async verdicts(path: string): Promise<Record<string, boolean>> {
    await this.tester.fill(path)
    const items = this.page.locator('.perm-why li')
    await expect(items).toHaveCount(4)
    const out: Record<string, boolean> = {}
    for (const li of await items.all()) {
      out[(await li.getAttribute('data-method'))!] = (await li.getAttribute('data-allowed')) === 'true'
    }
    return out
  }
}
