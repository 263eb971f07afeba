/**
 * Page model for what a session may not do (issue 11): the in-place "Read-only" note, controls that
 * stay but are disabled with their reason, and the local outbox, read from IndexedDB and from the sync
 * test hook, to prove that nothing was queued.
 */
import { expect, type Locator, type Page } from '@playwright/test'
import { localState } from './sync-panel'

interface HandleWindow {
  __momentum?: { status(): { pending: number } }
}

export class ReadOnlyView {
  readonly note: Locator
  readonly toolbarSave: Locator
  readonly dialog: Locator

  constructor(readonly page: Page) {
    this.note = page.getByTestId('readonly-note')
    this.toolbarSave = page.locator('header.toolbar').getByRole('button', { name: 'Save' })
    this.dialog = page.locator('dialog.mc-dialog')
  }

  /** A button of the screen's header, by its visible name. */
  button(name: string | RegExp): Locator {
    return this.page.locator('.screen-head').getByRole('button', { name })
  }

  /** Present, disabled (aria-disabled keeps it focusable) and saying why on hover. */
  async expectDenied(control: Locator, reason: string): Promise<void> {
    await expect(control).toBeVisible()
    await expect(control).toBeDisabled()
    await expect(control).toHaveAttribute('title', reason)
  }

  /** Nothing queued: the outbox table and the engine's pending count (the Sync badge's number). */
  async expectNothingQueued(collection: string): Promise<void> {
    expect((await localState(this.page, collection)).outbox).toBe(0)
    const pending = await this.page.evaluate(
      () => (window as unknown as HandleWindow).__momentum?.status().pending,
    )
    expect(pending).toBe(0)
    await expect(this.page.getByTestId('sync-pending-count')).toBeHidden()
  }
}
