/** Page models of /actions and /actions/{id}: the list, the editor with its debug panel, the history. */
import { expect, type Locator, type Page } from '@playwright/test'
import { type E2EServer, openLoggedIn, passwordOf } from '../fixtures'
import { engineReady } from './sync-panel'
import { saveAndWait } from './toasts'

const AUTHOR_PERMISSIONS = ['actions:*', 'action-runs:r']

/** Logs in as an action author on `path`; the user is created once per server. */
export async function openAsAuthor(page: Page, server: E2EServer, path = '/actions') {
  const admin = await server.login()
  if ((await server.api('/api/users/scripter', { token: admin })).status === 404)
    await server.createUser('scripter', AUTHOR_PERMISSIONS, 'Sam Scripter')
  const token = await server.login('scripter', passwordOf('scripter'))
  await openLoggedIn(page, server, token, path)
  await engineReady(page)
  return { token }
}

export class ActionsPage {
  readonly table: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Actions' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/actions`)
    await expect(this.page.getByRole('heading', { name: 'Actions', level: 1 })).toBeVisible()
  }

  row(id: string): Locator {
    return this.table.getByRole('row').filter({ hasText: id })
  }

  enabledSwitch(name: string): Locator {
    return this.page.getByRole('switch', { name: `Enabled: ${name}` })
  }

  async create(id: string, name: string, trigger: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New action' }).click()
    const form = this.page.getByRole('form', { name: 'New action' })
    await form.getByLabel('Action id').fill(id)
    await form.getByLabel('Name', { exact: true }).fill(name)
    await form.getByLabel('Trigger').selectOption(trigger)
    await form.getByRole('button', { name: 'Create action' }).click()
    await expect(this.page).toHaveURL(new RegExp(`/actions/${id}$`))
  }
}

export class ActionEditor {
  constructor(readonly page: Page) {}

  get code(): Locator {
    return this.page.getByRole('textbox', { name: 'Code' })
  }

  /** Replaces the script's whole text. */
  async setCode(text: string): Promise<void> {
    await this.code.click()
    await this.page.keyboard.press('ControlOrMeta+a')
    await this.page.keyboard.press('Delete')
    await this.code.fill(text)
    await expect(this.code).toHaveText(text.replace(/\n/g, ''), { useInnerText: false })
  }

  /** Ctrl/Cmd+S; offline the toast says the save stays on this device until it is sent. */
  async save(id: string, offline = false): Promise<void> {
    await saveAndWait(this.page, `Action ${id}`, offline)
  }

  get debug(): Locator {
    return this.page.getByRole('region', { name: 'Debug' })
  }

  get runButton(): Locator {
    return this.debug.getByRole('button', { name: 'Run', exact: true })
  }

  get result(): Locator {
    return this.page.getByRole('region', { name: 'Debug result' })
  }

  /** Runs the saved action with `input` (JSON text) once the panel allows it. */
  async run(input: string): Promise<void> {
    await this.debug.getByLabel('Input (JSON)').fill(input)
    await expect(this.runButton).toBeEnabled({ timeout: 20_000 })
    await this.runButton.click()
    await expect(this.result).toBeVisible()
  }

  get history(): Locator {
    return this.page.getByRole('region', { name: 'Run history' })
  }

  get runs(): Locator {
    return this.history.getByRole('list', { name: 'Runs' }).getByRole('listitem')
  }
}

/** Elements that stick out past the viewport's right edge (none, when the page fits a phone). */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .filter((el) => !el.closest('.vt'))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 10)
  })
}
