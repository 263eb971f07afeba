/** Page model of the API tokens tab (/users?tab=tokens). */
import { expect, type Locator, type Page } from '@playwright/test'

export class TokensPage {
  readonly newToken: Locator
  readonly secret: Locator
  readonly list: Locator
  constructor(readonly page: Page) {
    this.newToken = page.getByRole('button', { name: 'New token' })
    this.secret = page.getByTestId('new-token')
    this.list = page.getByRole('list', { name: 'API tokens' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/users?tab=tokens`)
    await expect(this.page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible()
  }

  /** Creates a token through the form and returns the secret shown once. */
  async create(name: string, permissions: string[]): Promise<string> {
    await this.newToken.click()
    const form = this.page.getByRole('form', { name: 'New token' })
    await form.getByLabel('Token name').fill(name)
    await form.getByLabel(/^Permissions/).fill(permissions.join('\n'))
    await form.getByRole('button', { name: 'Create token' }).click()
    await expect(this.secret).toBeVisible()
    return (await this.secret.textContent()) ?? ''
  }

  row(name: string): Locator {
    return this.list.getByRole('listitem').filter({ hasText: name })
  }
}
