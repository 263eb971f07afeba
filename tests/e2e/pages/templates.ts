/** Page models of /templates and /templates/{id}: the list with its kind filter, and the editor. */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test'
import { saveAndWait } from './toasts'

export class TemplatesPage {
  readonly table: Locator
  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Templates' })
  }

  async open(ui: string): Promise<void> {
    await this.page.goto(`${ui}/templates`)
    await expect(this.page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible()
  }

  row(id: string): Locator {
    return this.table.getByRole('row').filter({ hasText: id })
  }

  async filterKind(kind: string): Promise<void> {
    await this.page.getByLabel('Filter by kind').selectOption(kind)
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Search templates' }).fill(text)
  }

  async create(kind: string, id: string, name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New template' }).click()
    const form = this.page.getByRole('form', { name: 'New template' })
    await form.getByLabel('Kind').selectOption(kind)
    await form.getByLabel('Template id').fill(id)
    await form.getByLabel('Name', { exact: true }).fill(name)
    await form.getByRole('button', { name: 'Create template' }).click()
    await expect(this.page).toHaveURL(new RegExp(`/templates/${id}$`))
  }
}

export class TemplateEditor {
  constructor(readonly page: Page) {}

  /** A CodeMirror field by its label (its content element is a textbox named by the label). */
  code(label: string | RegExp): Locator {
    return this.page.getByRole('textbox', { name: label })
  }

  /** Replaces a CodeMirror field's whole text. */
  async setCode(label: string | RegExp, text: string): Promise<void> {
    const box = this.code(label)
    await box.click()
    await this.page.keyboard.press('ControlOrMeta+a')
    await this.page.keyboard.press('Delete')
    await box.fill(text)
    await expect(box).toHaveText(text.replace(/\n/g, ''), { useInnerText: false })
  }

  async chooseLayout(id: string): Promise<void> {
    await this.page.getByLabel('Layout', { exact: true }).selectOption(id)
  }

  preview(field = 'HTML'): FrameLocator {
    return this.page.frameLocator(`iframe[title="Preview of ${field}"]`)
  }

  previewFrame(field = 'HTML'): Locator {
    return this.page.locator(`iframe[title="Preview of ${field}"]`)
  }

  get previewRegion(): Locator {
    return this.page.getByRole('region', { name: 'Preview' })
  }

  /** Ctrl/Cmd+S; offline the toast says the save stays on this device until it is sent. */
  async save(name: string, offline = false): Promise<void> {
    await saveAndWait(this.page, `Template ${name}`, offline)
  }

  button(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name })
  }

  async delete(): Promise<void> {
    await this.button('Delete').first().click()
    await this.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  }
}
