/**
 * The Actions console (issue 15) against the real server: an action created and scripted in the
 * editor (CodeMirror with host API completion), debugged with an input (output, logs, timing, an
 * error with its line), a history that shows a run made through the API as it happens; the list's
 * trigger in words, enabled switch, last run and next run; all at desktop and 375 px width. Edits that
 * would lend rights the user lacks are refused beside the field (before saving, and the server's
 * refusal of the queued save), and a run stopped by a budget is announced on the action's page.
 */
import { expect, openLoggedIn, passwordOf, test } from './fixtures'
import { ActionEditor, ActionsPage, openAsAuthor, overflowing } from './pages/actions'
import { WIDTHS } from './widths'

// An HTTP run's input is the request ({method, query, headers, body}); a debug run's is the input itself.
const GREETER = [
  'const who = input.body ? input.body.name : input.name',
  'const upper = who.toUpperCase()',
  "log('greeting', who)",
  "return { greeting: 'Hello ' + upper }",
].join('\n')

for (const { name, viewport } of WIDTHS) {
  test.describe(`actions at ${name} width`, () => {
    test.use({ viewport })

    test('an action written in the editor is debugged with an input; its history updates live', async ({
      page,
      server,
    }) => {
      test.setTimeout(120_000)
      const { token } = await openAsAuthor(page, server)
      const id = `greeter-${name}`
      await new ActionsPage(page).create(id, 'Greeter', 'POST')
      const editor = new ActionEditor(page)
      await expect(page.getByText(`POST /api/actions/run/${id}`)).toBeVisible()

      // Completion of the host API: `db.` offers its methods.
      await editor.code.click()
      await page.keyboard.press('ControlOrMeta+End')
      await page.keyboard.type('\ndb.')
      await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('list')
      await page.keyboard.press('Escape')

      await editor.setCode(GREETER)
      await editor.save(id)
      await expect
        .poll(
          async () => ((await server.api(`/api/actions/${id}`, { token })).body as { code?: string }).code,
        )
        .toBe(GREETER)

      await editor.run('{"name": "Ada"}')
      await expect(editor.result.getByRole('region', { name: 'Output' })).toContainText(
        '"greeting": "Hello ADA"',
      )
      await expect(editor.result.getByRole('region', { name: 'Logs' })).toContainText('greeting Ada')
      await expect(editor.result).toContainText(/ok · \d+ ms/)
      await expect(editor.result).toContainText(/started .* · \d+ ms/)
      await expect(editor.runs).toHaveCount(1)
      await expect(editor.runs.first()).toContainText('DEBUG')

      // An input without `name`: the script fails on its line 2, and the panel says so.
      await editor.run('{}')
      await expect(editor.result.getByRole('alert')).toContainText('script error at line 2')
      await editor.result.getByRole('button', { name: 'Go to line 2' }).click()
      await expect(editor.code).toBeFocused()

      // A run through the API from outside shows up in the open history without a reload.
      const res = await server.api(`/api/actions/run/${id}`, { token, json: { name: 'Bob' } })
      expect(res.body).toEqual({ greeting: 'Hello BOB' })
      await expect(editor.runs).toHaveCount(3)
      const newest = editor.runs.first()
      await expect(newest).toContainText('POST')
      await newest.locator('summary').click()
      await expect(newest.getByRole('region', { name: 'Logs' })).toContainText('greeting Bob')

      // Filters: only errors, then only POST runs.
      await editor.history.getByLabel('Filter runs by status').selectOption('error')
      await expect(editor.runs).toHaveCount(1)
      await editor.history.getByLabel('Filter runs by status').selectOption('')
      await editor.history.getByLabel('Filter runs by trigger').selectOption('POST')
      await expect(editor.runs).toHaveCount(1)

      // CodeMirror's generated theme applies under the CSP, and nothing is wider than the screen.
      await expect(page.locator('.cm-editor').first()).toHaveCSS('display', 'flex')
      expect(await overflowing(page)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      )
      await page.screenshot({ path: `test-results/screenshots/actions-editor-${name}.png`, fullPage: true })
    })

    test('the list shows the trigger in words, the last run, the next run and an enabled switch', async ({
      page,
      server,
    }) => {
      test.setTimeout(90_000)
      // Created by the author: saving an action that runs as someone else needs users:u.
      const { token } = await openAsAuthor(page, server)
      const cronId = `nightly-${name}`
      const httpId = `hook-${name}`
      for (const [id, trigger] of [
        [cronId, { type: 'CRON', cron: '30 9 * * 1-5', timezone: 'Europe/Berlin' }],
        [httpId, { type: 'GET' }],
      ] as const) {
        const res = await server.api('/api/actions', {
          token,
          json: { _id: id, name: id, trigger, code: "log('tick'); return 1" },
        })
        expect(res.status).toBeLessThan(300)
      }
      expect((await server.api(`/api/actions/run/${httpId}`, { token })).status).toBe(200)
      const list = new ActionsPage(page)
      await expect(list.row(cronId)).toContainText('At 09:30, Monday through Friday (Europe/Berlin)')
      await expect(list.row(cronId)).toContainText(/in .*(minute|hour|day)/)
      await expect(list.row(cronId)).toContainText('never')
      await expect(list.row(httpId)).toContainText(`GET /api/actions/run/${httpId}`)
      await expect(list.row(httpId)).toContainText(/ok · \d+ ms/)
      await expect(list.row(httpId)).toContainText('on request')

      await list.enabledSwitch(cronId).click()
      await expect(list.enabledSwitch(cronId)).not.toBeChecked()
      await expect
        .poll(
          async () =>
            ((await server.api(`/api/actions/${cronId}`, { token })).body as { enabled?: boolean }).enabled,
        )
        .toBe(false)
      await expect(list.row(cronId)).toContainText('never (disabled)')

      await page.getByLabel('Filter by trigger').selectOption('CRON')
      await expect(list.row(httpId)).toHaveCount(0)
      await expect(list.row(cronId)).toHaveCount(1)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      )
      await page.screenshot({ path: `test-results/screenshots/actions-list-${name}.png`, fullPage: true })
    })
  })
}

test('the CRON fields check the expression and time zone and preview the next runs', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  await openAsAuthor(page, server)
  await new ActionsPage(page).create('schedule', 'Schedule', 'CRON')
  await page.getByLabel('CRON expression').fill('*/15 * * * *')
  const preview = page.getByRole('region', { name: 'Next runs' })
  await expect(preview).toContainText('Runs every 15 minutes')
  await expect(preview.getByRole('listitem')).toHaveCount(5)
  await page.getByLabel('Time zone').fill('Mars/Olympus')
  await expect(page.getByText('Not an IANA time zone such as Europe/Berlin')).toBeVisible()
  await page.getByLabel('Time zone').fill('Asia/Tokyo')
  await page.getByLabel('CRON expression').fill('61 * * * *')
  await expect(page.getByText(/Not a valid cron expression/)).toBeVisible()
  // While the form is invalid it cannot be saved.
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled()
})

test('without action-runs:r the history comes from the action routes and still tails live', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  await server.createUser('watcher', ['actions:*'], 'Wes Watcher')
  const token = await server.login('watcher', passwordOf('watcher'))
  const made = await server.api('/api/actions', {
    token,
    json: { _id: 'pinged', name: 'Pinged', trigger: { type: 'GET' }, code: "log('pong'); return 'pong'" },
  })
  expect(made.status).toBeLessThan(300)
  expect((await server.api('/api/actions/run/pinged', { token })).body).toBe('pong')
  await openLoggedIn(page, server, token, '/actions/pinged')
  const editor = new ActionEditor(page)
  await expect(editor.runs).toHaveCount(1)
  // The mirror has no runs for this user: the tail is the websocket topic of the action's readers.
  expect((await server.api('/api/actions/run/pinged', { token })).status).toBe(200)
  await expect(editor.runs).toHaveCount(2)
  await expect(editor.runs.first()).toContainText('GET')
})

test('an edit that would lend rights the user lacks is refused next to its field', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000)
  const admin = await server.login()
  // helper reads what the delegate does not; the delegate may change helper's account, nothing more.
  await server.createUser('helper', ['data/payroll:r'], 'Hal Helper')
  await server.createUser('delegate', ['actions:*', 'action-runs:r', 'users/helper:u'], 'Dee Delegate')
  for (const [id, runAs] of [
    ['as-admin', 'admin'],
    ['as-helper', 'helper'],
  ]) {
    const made = await server.api('/api/actions', {
      token: admin,
      json: { _id: id, name: id, trigger: { type: 'GET' }, code: 'return 1', runAs },
    })
    expect(made.status).toBeLessThan(300)
  }
  const token = await server.login('delegate', passwordOf('delegate'))
  await openLoggedIn(page, server, token, '/actions/as-admin')
  const editor = new ActionEditor(page)
  const save = page.getByRole('button', { name: 'Save' })
  const runAs = page.getByRole('textbox', { name: 'Runs as (user id)' })
  // Before saving: the session's own permissions answer.
  await editor.setCode('return 2')
  await expect(page.locator('#action-run-as-error')).toHaveText(
    'You cannot make this run as admin: it needs the permission users/admin:u, which you do not have',
  )
  await expect(runAs).toHaveAttribute('aria-invalid', 'true')
  await expect(save).toBeDisabled()
  await page.getByLabel('Type', { exact: true }).selectOption('EVENT')
  await runAs.fill('delegate')
  await page.getByRole('textbox', { name: 'Collection', exact: true }).fill('contacts')
  await page.getByRole('checkbox', { name: 'create', exact: true }).check()
  await expect(page.locator('#action-collection-error')).toHaveText(
    'You cannot watch contacts for changes: it needs the permission data/contacts:r, which you do not have',
  )
  await expect(save).toBeDisabled()

  // What only the server knows (helper's rights) comes back as the queued save's refusal, at Runs as.
  await page.goto(`${server.ui}/actions/as-helper`)
  await editor.setCode('return 3')
  await expect(save).toBeEnabled()
  await page.keyboard.press('ControlOrMeta+s')
  // The save's toast is neutral while queued and says the refusal when the server gives it, never
  // "saved successfully" (issue 36).
  await expect(page.getByText(/^Action as-helper was not saved: .*data\/payroll:r/)).toBeVisible()
  await expect(page.getByText('Action as-helper was saved successfully')).toHaveCount(0)
  const note = page.getByTestId('refusal-note')
  await expect(note).toContainText('they hold permissions you do not have (data/payroll:r)')
  await expect(note.locator('xpath=..')).toContainText('Runs as (user id)')
  await note.getByRole('button').click()
  await expect(note).toHaveCount(0)
})

test('the action page says when its newest run was stopped by a budget', async ({ page, server }) => {
  test.setTimeout(120_000)
  const admin = await server.login()
  const made = await server.api('/api/actions', {
    token: admin,
    json: {
      _id: 'swarm',
      name: 'swarm',
      trigger: { type: 'EVENT', collection: 'swarm', operations: ['create'] },
      code: "for (let i = 0; i < 3; i++) await db.create('swarm', { from: input.event.id })",
    },
  })
  expect(made.status).toBeLessThan(300)
  // The scheduler's first tick sets the cursor; the person's write after it starts one chain.
  await new Promise((r) => setTimeout(r, 2500))
  expect((await server.api('/api/data/swarm', { token: admin, json: { _id: 'seed' } })).status).toBe(201)
  await openLoggedIn(page, server, admin, '/actions/swarm')
  await expect(page.getByTestId('budget-notice')).toContainText(
    'Stopped by the budget per causing change: the change that started this chain has already caused 100 runs (the limit)',
    { timeout: 60_000 },
  )
  await server.api('/api/actions/swarm', { method: 'PATCH', token: admin, json: { enabled: false } })
})
