/**
 * Page models of the Forms screens (issue 17): the list's "New form", the editor driven by the
 * keyboard alone (focus moves with Tab or by focusing a control, values are typed, selects change with
 * the arrow keys, checkboxes and radios toggle with Space, Enter presses buttons), and the filler.
 */
import { expect, type Locator, type Page } from '@playwright/test'

/** Changes a focused <select> with the arrow keys until the wanted option's text is chosen. */
export async function chooseByKeyboard(page: Page, select: Locator, optionText: string): Promise<void> {
  await select.focus()
  const options = await select.locator('option').allTextContents()
  const want = options.findIndex((o) => o.trim() === optionText)
  if (want < 0) throw new Error(`no option '${optionText}' in ${options.join(', ')}`)
  await page.keyboard.press('Home')
  for (let i = 0; i < want; i++) await page.keyboard.press('ArrowDown')
  await expect(select.locator('option:checked')).toHaveText(optionText)
}

export function fieldIn(scope: Page | Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?$`))
}

/** Replaces the text of a focused input or textarea. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await field.focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  if (text) await page.keyboard.type(text)
}

export class FormsPage {
  constructor(readonly page: Page) {}

  async create(id: string, title: string, target: string): Promise<void> {
    const { page } = this
    await page.getByRole('button', { name: 'New form' }).focus()
    await page.keyboard.press('Enter')
    await typeInto(page, page.getByLabel('Path'), id)
    await page.keyboard.press('Tab')
    await page.keyboard.type(title)
    await page.keyboard.press('Tab')
    await page.keyboard.type(target)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/ui/forms/${id}$`))
    await expect(page.getByRole('heading', { name: 'Fields' })).toBeVisible()
  }
}

export interface FieldSpec {
  type: string
  label: string
  name?: string
  required?: boolean
  options?: string[]
  /** Condition: the label of an earlier field, and the value's text in the condition's select. */
  showIf?: { field: string; value: string }
}

export class FormEditorPage {
  constructor(readonly page: Page) {}

  get fields(): Locator {
    return this.page.getByRole('list', { name: 'Fields' })
  }

  async addField(spec: FieldSpec): Promise<void> {
    const { page } = this
    await chooseByKeyboard(page, page.getByLabel('New field type'), spec.type)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    // The editor moves the focus to the new field's label.
    const label = page.locator('#field-label')
    await expect(label).toBeFocused()
    await typeInto(page, label, spec.label)
    if (spec.name) await typeInto(page, page.getByLabel('Stored as (key)'), spec.name)
    if (spec.required) {
      await page.getByRole('checkbox', { name: /^Required/ }).focus()
      await page.keyboard.press('Space')
    }
    if (spec.options) {
      const options = page.getByLabel('Options, one per line')
      await options.focus()
      await page.keyboard.press('ControlOrMeta+A')
      await page.keyboard.press('Backspace')
      for (const [i, o] of spec.options.entries()) {
        if (i) await page.keyboard.press('Enter')
        await page.keyboard.type(o)
      }
    }
    if (spec.showIf) {
      await chooseByKeyboard(page, page.locator('#field-condition'), spec.showIf.field)
      await chooseByKeyboard(page, page.locator('#field-condition-value'), spec.showIf.value)
    }
  }

  /** Moves a field with its handle and the arrow keys. */
  async moveUp(label: string, steps = 1): Promise<void> {
    const handle = this.page.getByRole('button', { name: new RegExp(`^Move ${label} \\(`) })
    await handle.focus()
    for (let i = 0; i < steps; i++) await this.page.keyboard.press('ArrowUp')
  }

  async anyoneWithTheLink(): Promise<void> {
    const radio = this.page.getByRole('radio', { name: /Anyone with the link/ })
    // Saved right after, so the choice must have reached the editor first. Under load a re-render just
    // after the previous step (removing a field) can take the focus back before Space lands; Space on a
    // checked radio changes nothing, so trying again is safe.
    await expect(async () => {
      await radio.focus()
      await this.page.keyboard.press('Space')
      await expect(radio).toBeChecked({ timeout: 1000 })
    }).toPass({ timeout: 15_000 })
  }

  async save(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+S')
  }

  preview(view: 'Phone' | 'Desktop' | 'JSON'): Locator {
    return this.page.getByRole('tab', { name: view })
  }
}

export class FillPage {
  constructor(readonly page: Page) {}

  /** An input by its label; a required field's label ends with its '*' mark. */
  field(label: string): Locator {
    return fieldIn(this.page, label)
  }

  async send(): Promise<void> {
    await this.page.getByRole('button', { name: 'Send' }).click()
  }

  async again(): Promise<void> {
    await this.page.getByRole('button', { name: 'Fill in again' }).click()
  }

  get queue(): Locator {
    return this.page.getByTestId('form-queue')
  }
}
