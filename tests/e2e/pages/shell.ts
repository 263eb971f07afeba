/** Page model of the console shell (SPEC §2): sidebar, toolbar, breadcrumb, user menu, footer. */
import type { Locator, Page } from '@playwright/test'

export class Shell {
  readonly sidebar: Locator
  readonly nav: Locator
  readonly toolbar: Locator
  readonly breadcrumb: Locator
  readonly currentCrumb: Locator
  readonly footer: Locator
  readonly avatar: Locator

  constructor(readonly page: Page) {
    this.sidebar = page.locator('#sidebar')
    this.nav = page.getByRole('navigation', { name: 'Main' })
    this.toolbar = page.locator('header.toolbar')
    this.breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' })
    this.currentCrumb = this.breadcrumb.locator('[aria-current="page"]')
    this.footer = page.locator('footer.footer')
    this.avatar = page.getByRole('button', { name: /^Account menu for/ })
  }

  /** The menu button's name changes with state: Open/Close menu (narrow), Collapse/Expand sidebar. */
  menuButton(): Locator {
    return this.toolbar.getByRole('button', {
      name: /^(Open menu|Close menu|Collapse sidebar|Expand sidebar)$/,
    })
  }

  /** On a phone the sidebar is a drawer: opens it if it is closed. Nothing to do on a desktop. */
  async openNav(): Promise<void> {
    const button = this.menuButton()
    await button.waitFor()
    if ((await button.getAttribute('aria-label')) === 'Open menu') await button.click()
    await this.nav.waitFor()
  }

  /** Closes an open phone drawer (its scrim covers the toolbar). Nothing to do on a desktop. */
  async closeNav(): Promise<void> {
    const button = this.menuButton()
    await button.waitFor()
    if ((await button.getAttribute('aria-label')) !== 'Close menu') return
    await this.page.keyboard.press('Escape')
    await this.sidebar.waitFor({ state: 'hidden' })
  }

  /** Visible entry names of the sidebar, groups opened, in order. */
  async menuEntries(): Promise<string[]> {
    await this.openNav()
    const groups = this.nav.locator('button[aria-expanded="false"]')
    while ((await groups.count()) > 0) await groups.first().click()
    return this.nav
      .locator('.nav-item')
      .evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.textContent?.trim() ?? ''),
      )
  }

  async navigate(name: string): Promise<void> {
    await this.openNav()
    await this.nav.getByRole('link', { name, exact: true }).click()
  }

  /** The assistant is a sidebar entry, so on a phone it sits in the drawer. */
  async openAssistant(): Promise<void> {
    await this.openNav()
    await this.nav.getByRole('button', { name: 'AI Assistant' }).click()
  }

  async logout(): Promise<void> {
    await this.closeNav()
    await this.avatar.click()
    await this.page.getByRole('button', { name: 'Logout' }).click()
  }
}
