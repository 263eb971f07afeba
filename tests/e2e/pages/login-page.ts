/** Page model of /login (SPEC §2): credentials step, TOTP step, inline error. */
import type { Locator, Page } from '@playwright/test'

export class LoginPage {
  readonly username: Locator
  readonly password: Locator
  readonly submit: Locator
  readonly error: Locator
  readonly heading: Locator

  constructor(readonly page: Page) {
    this.username = page.getByLabel('Username')
    this.password = page.getByLabel('Password')
    this.submit = page.getByRole('button', { name: 'Log in' })
    this.error = page.getByRole('alert')
    this.heading = page.getByRole('heading', { level: 1 })
  }

  async open(ui: string, query = ''): Promise<void> {
    await this.page.goto(`${ui}/login${query}`)
  }

  async login(username: string, password: string): Promise<void> {
    await this.username.fill(username)
    await this.password.fill(password)
    await this.submit.click()
  }
}
