/** Page model of the file browser (/ui/storage/… and /ui/static/…, docs/using/storage.md). */
import { expect, type Locator, type Page } from '@playwright/test'
import { dismissToasts } from './toasts'

export class StoragePage {
  readonly heading: Locator
  readonly table: Locator
  readonly grid: Locator
  readonly search: Locator
  readonly tree: Locator
  readonly preview: Locator
  readonly filesInput: Locator
  readonly folderInput: Locator
  readonly totalProgress: Locator

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 })
    this.table = page.getByRole('table', { name: 'Files and folders' })
    this.grid = page.getByRole('grid', { name: 'Files and folders' })
    this.search = page.getByLabel('Search in this folder')
    this.tree = page.getByRole('navigation', { name: 'Folders' })
    this.preview = page.getByTestId('storage-preview')
    this.filesInput = page.getByTestId('upload-files')
    this.folderInput = page.getByTestId('upload-folder')
    this.totalProgress = page.getByRole('progressbar', { name: 'Total upload progress' })
  }

  async open(ui: string, root: 'storage' | 'static' = 'storage', path = ''): Promise<void> {
    await this.page.goto(`${ui}/${root}${path ? `/${path}` : ''}`)
    await expect(this.table.or(this.grid)).toBeVisible()
  }

  /**
   * The row (list view) or card (grid view) of an entry of the shown folder, by its exact name. The
   * listing is virtualized: only rows near the scrolled position exist.
   */
  row(name: string): Locator {
    return this.page.locator('.storage-table tbody tr, .storage-grid .storage-card').filter({
      has: this.page.locator('.storage-link, .storage-ghost-name').getByText(name, { exact: true }),
    })
  }

  link(name: string): Locator {
    return this.row(name).locator('.storage-link')
  }

  uploadProgress(name: string): Locator {
    return this.page.getByRole('progressbar', { name: `Upload progress of ${name}` })
  }

  /** The row's "Actions for …" menu button (the menu panel has the same label). */
  menuButton(name: string): Locator {
    return this.row(name).locator('summary')
  }

  async menu(name: string, action: string): Promise<void> {
    await this.dismissToasts()
    await this.menuButton(name).click()
    await this.row(name).getByRole('menuitem', { name: action, exact: true }).click()
  }

  dialog(title: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name: title })
  }

  /** Toasts sit over the top right of the page (where the header buttons are): close them first. */
  dismissToasts(): Promise<void> {
    return dismissToasts(this.page)
  }

  async newFolder(name: string): Promise<void> {
    await this.dismissToasts()
    await this.page.getByRole('button', { name: 'New folder' }).click()
    const d = this.dialog('New folder')
    await d.getByLabel('Folder name').fill(name)
    await d.getByRole('button', { name: 'Create folder' }).click()
    await expect(d).toBeHidden()
  }

  async rename(name: string, to: string): Promise<void> {
    await this.menu(name, 'Rename…')
    const d = this.dialog(`Rename ${name}`)
    await d.getByLabel('New name').fill(to)
    await d.getByRole('button', { name: 'Rename' }).click()
    await expect(d).toBeHidden()
  }

  /** Move or copy one entry with the folder picker; `folder` as the picker shows it ('/docs'). */
  async moveOrCopy(name: string, how: 'Move' | 'Copy', folder: string): Promise<void> {
    await this.menu(name, `${how} to…`)
    const d = this.dialog(`${how} ${name} to…`)
    await d.getByRole('radio', { name: folder, exact: true }).check()
    await d.getByRole('button', { name: `${how} here` }).click()
    await expect(d).toBeHidden()
  }

  async describe(name: string, text: string): Promise<void> {
    await this.menu(name, 'Edit description…')
    const d = this.dialog(`Description of ${name}`)
    await d.getByRole('textbox', { name: 'Description' }).fill(text)
    await d.getByRole('button', { name: 'Save' }).click()
    await expect(d).toBeHidden()
  }

  select(name: string): Locator {
    return this.page.getByRole('checkbox', { name: `Select ${name}`, exact: true })
  }

  async openFolderInTree(path: string): Promise<void> {
    if (!(await this.tree.isVisible())) await this.page.getByRole('button', { name: 'Folders' }).click()
    await this.tree.getByRole('link', { name: path, exact: true }).click()
  }
}
