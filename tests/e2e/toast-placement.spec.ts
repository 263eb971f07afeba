/**
 * Toasts keep clear of the page's actions (issue 36 #10): the toast a button raises (Duplicate, Send a
 * test to me, a save) once sat on that very button and on Delete, at the top right under the toolbar.
 * On the Templates, Actions and Forms editors, at 1280 and 375 px, every toast's box must not meet
 * the box of any button of the toolbar or the page heading. Screenshots in /tmp/shots.
 */
import type { Page } from '@playwright/test'
import { expect, openLoggedIn, test } from './fixtures'
import { engineReady } from './pages/sync-panel'
import { dismissToasts } from './pages/toasts'
import { WIDTHS } from './widths'

test.use({ seed: 'sample' })

/**
 * Does `trigger`, then lists the page actions the toast saying `text` (or any toast beside it)
 * covers; none is the answer. The page itself waits for the toast and for the heading's `buttons`,
 * and measures the moment both are there, so a loaded machine cannot let the toast time out (5 s)
 * before it is measured.
 */
async function coveredActions(
  page: Page,
  text: string,
  buttons: string[],
  trigger: () => Promise<void>,
): Promise<string[]> {
  const measured = page.evaluate(
    async ({ wanted, named }) => {
      const toasts = () => [...document.querySelectorAll('.mc-toast')]
      const actions = () =>
        [...document.querySelectorAll<HTMLElement>('.toolbar button, .screen-head button')].filter((b) =>
          b.checkVisibility(),
        )
      const ready = () =>
        toasts().some((t) => t.textContent?.toLowerCase().includes(wanted.toLowerCase())) &&
        named.every((n) => actions().some((b) => b.innerText.trim() === n))
      const started = performance.now()
      while (!ready()) {
        if (performance.now() - started > 20_000) return [`(no toast "${wanted}" beside ${named.join(', ')})`]
        await new Promise((r) => requestAnimationFrame(r))
      }
      const boxes = toasts().map((t) => t.getBoundingClientRect())
      const meets = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
      return actions()
        .filter((b) => boxes.some((t) => meets(t, b.getBoundingClientRect())))
        .map((b) => b.innerText.trim() || (b.getAttribute('aria-label') ?? '(icon button)'))
    },
    { wanted: text, named: buttons },
  )
  await trigger()
  return measured
}

const TEMPLATE_BUTTONS = ['Duplicate', 'Send a test to me', 'Delete']

for (const { name, viewport } of WIDTHS) {
  test.describe(`toasts at ${name} width`, () => {
    test.use({ viewport })

    test('a toast never covers Duplicate, Send a test or Delete', async ({ page, server }) => {
      test.setTimeout(120_000)
      const admin = await server.login()
      const id = `toast-${name}`
      for (const [collection, json] of [
        [
          'templates',
          { _id: id, kind: 'email', name: 'Toast check', subject: 'Hi', html: '<p>Hello {{ name }}</p>' },
        ],
        ['actions', { _id: id, name: 'Toast check', trigger: { type: 'GET' }, code: "return 'ok'" }],
      ] as const) {
        const res = await server.api(`/api/${collection}`, { token: admin, json })
        expect(res.status, collection).toBeLessThan(300)
      }

      // Templates: Duplicate (its toast is shown on the copy, whose buttons sit in the same place).
      await openLoggedIn(page, server, admin, `/templates/${id}`)
      await engineReady(page)
      const duplicate = page.getByRole('button', { name: 'Duplicate' })
      expect(await coveredActions(page, `${id}-copy`, TEMPLATE_BUTTONS, () => duplicate.click())).toEqual([])
      await expect(page).toHaveURL(new RegExp(`/templates/${id}-copy$`))
      await page.screenshot({ path: `/tmp/shots/toast-template-duplicate-${name}.png` })
      // Send a test to me: this server has no SMTP, so the answer is "Queued: e-mail is not configured…".
      await dismissToasts(page)
      const sendTest = page.getByRole('button', { name: 'Send a test to me' })
      expect(await coveredActions(page, 'not configured', TEMPLATE_BUTTONS, () => sendTest.click())).toEqual(
        [],
      )
      await page.screenshot({ path: `/tmp/shots/toast-template-test-${name}.png` })

      // Actions: a save.
      await page.goto(`${server.ui}/actions/${id}`)
      await page.getByLabel('Name', { exact: true }).fill(`Toast check, saved at ${name} width`)
      // Ctrl+S once the edit is known to the page (its toolbar Save is enabled).
      const save = async () => {
        await expect(page.locator('.toolbar').getByRole('button', { name: 'Save' })).toBeEnabled()
        await page.keyboard.press('ControlOrMeta+s')
      }
      expect(await coveredActions(page, 'saved', ['Delete'], save)).toEqual([])
      await page.screenshot({ path: `/tmp/shots/toast-action-save-${name}.png` })

      // Forms: a save of the sample form.
      await page.goto(`${server.ui}/forms/inspections`)
      await page.getByLabel('Title', { exact: true }).fill(`Site inspection, saved at ${name} width`)
      expect(await coveredActions(page, 'saved', ['Delete'], save)).toEqual([])
      await page.screenshot({ path: `/tmp/shots/toast-form-save-${name}.png` })
    })
  })
}
