/** Page model of a collection's schema editor (/data/{collection}/~schema, issue 36). */
import { expect, type Locator, type Page } from '@playwright/test'
import { SCHEMA_EDITOR_TEXT as T } from '../../../src/shared/texts'

export class SchemaEditorPage {
  readonly infer: Locator
  readonly addField: Locator
  readonly outcome: Locator
  readonly violations: Locator
  readonly toolbarSave: Locator
  readonly dialog: Locator

  constructor(readonly page: Page) {
    this.infer = page.getByRole('button', { name: T.infer })
    this.addField = page.getByRole('button', { name: T.addField })
    this.outcome = page.locator('.schema-outcome')
    this.violations = page.locator('.schema-violations')
    this.toolbarSave = page.locator('header.toolbar').getByRole('button', { name: 'Save' })
    this.dialog = page.locator('dialog.mc-dialog')
  }

  /** One field's card, by its name (its legend). */
  field(name: string): Locator {
    return this.page.getByRole('group', { name, exact: true })
  }

  part(field: string, label: string | RegExp): Locator {
    return this.field(field).getByLabel(label)
  }

  /** Ctrl/Cmd+S, the toolbar's Save at every width; answers "Save the schema" when asked. */
  async save(confirm = false): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+s')
    if (confirm) {
      await expect(this.dialog).toBeVisible()
      await this.dialog.getByRole('button', { name: T.confirmSave }).click()
    }
  }
}
