/** Page models of /users (list, New user form) and /users/{id} (profile, picture, password, TOTP). */
import { expect, type Locator, type Page } from '@playwright/test'

export class UsersPage {
  readonly heading: Locator
  readonly search: Locator
  readonly table: Locator
  readonly newUser: Locator

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 })
    this.search = page.getByLabel('Search users')
    this.table = page.getByRole('table', { name: 'Users' })
    this.newUser = page.getByRole('button', { name: 'New user' })
  }

  row(id: string): Locator {
    return this.table.getByRole('row').filter({ hasText: id })
  }

  async create(fields: { id: string; name?: string; password?: string }): Promise<void> {
    const form = this.page.getByRole('form', { name: 'New user' })
    if (!(await form.isVisible())) await this.newUser.click()
    await form.getByLabel('Username', { exact: true }).fill(fields.id)
    if (fields.name) await form.getByLabel('Name', { exact: true }).fill(fields.name)
    if (fields.password) await form.getByLabel('Password', { exact: true }).fill(fields.password)
    await form.getByRole('button', { name: 'Create user' }).click()
  }
}

export class UserPage {
  readonly heading: Locator
  readonly totpStatus: Locator
  readonly upload: Locator
  readonly progress: Locator

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 })
    this.totpStatus = page.getByTestId('totp-status')
    this.upload = page.locator('input[type="file"]')
    this.progress = page.getByRole('progressbar', { name: 'Upload progress' })
  }

  async open(ui: string, id: string): Promise<void> {
    await this.page.goto(`${ui}/users/${encodeURIComponent(id)}`)
    await expect(this.page.getByRole('heading', { name: 'Profile' })).toBeVisible()
  }

  /** Starts TOTP set-up and returns the key shown for manual entry. */
  async startTotp(): Promise<string> {
    await this.page.getByRole('button', { name: 'Set up two-factor authentication' }).click()
    await expect(this.page.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible()
    return this.page.getByLabel('Key').inputValue()
  }

  async confirmTotp(code: string): Promise<void> {
    await this.page.getByLabel('Code from the app').fill(code)
    await this.page.getByRole('button', { name: 'Confirm' }).click()
  }
}
