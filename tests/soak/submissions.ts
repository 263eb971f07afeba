/**
 * The soak's form submissions (docs/contributing/reliability.md): one link form, made through the API before the
 * run, whose target is a soak collection; each device fills it in a tab of its own browser context, as a
 * field worker with the link would: the Send button of /ui/forms/{id}, which goes through the
 * submission queue (src/app/forms/submission-queue.ts). That tab is on a second origin of the device's
 * proxy (localhost, where the console tabs use 127.0.0.1): the console tabs are logged in as the admin,
 * and an admin opening the form gets its editor, not the form to fill; logged out on the other origin,
 * the tab gets the form, with its own queue, behind the same proxy (so the same cuts, stalls, drops
 * and server kills). Acknowledged = the page said "sent" or "kept on this device" (the entry is stored
 * before either). Each submission's `note` is its op's id, so a doubled submission shows even under
 * two document ids.
 */
import { expect, type Page } from '@playwright/test'
import type { E2EServer } from '../e2e/fixtures'
import { fieldIn } from '../e2e/pages/forms'
import type { Device } from './harness'
import type { Change, Op } from './oplog'

export const FORM_ID = 'soak-form'
export const FORM_TARGET = 'data/soak-forms'
const TITLE = 'Soak report'

export async function createSoakForm(server: E2EServer, admin: string): Promise<void> {
  const res = await server.api('/api/forms', {
    token: admin,
    json: {
      _id: FORM_ID,
      title: TITLE,
      target: FORM_TARGET,
      fill: 'link',
      fields: [
        { name: 'note', label: 'Note', type: 'text', required: true },
        { name: 'by', label: 'By', type: 'text' },
      ],
    },
  })
  if (res.status !== 201) throw new Error(`POST /api/forms: ${res.status} ${JSON.stringify(res.body)}`)
}

/** A device's filling tab; `turn` makes the desk's two writers take turns at its one form. */
export interface Filler {
  page: Page
  turn: Promise<unknown>
}

export async function openFiller(device: Device): Promise<Filler> {
  const page = await device.context.newPage()
  const origin = device.proxy.url.replace('127.0.0.1', 'localhost')
  await page.goto(`${origin}/ui/forms/${FORM_ID}`)
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible({ timeout: 60_000 })
  return { page, turn: Promise.resolve() }
}

/** Fills and sends the form once, after the tab's previous submission. */
export function submitWrite(filler: Filler, actor: string, id: string): Promise<Op> {
  const op: Op = { id, actor, kind: 'submission', collection: FORM_TARGET, doc: id, ack: 'unknown' }
  const run = filler.turn.then(() => submitOnce(filler.page, op))
  filler.turn = run.catch(() => {})
  return run
}

async function submitOnce(page: Page, op: Op): Promise<Op> {
  const done = page.locator('.form-done')
  try {
    const again = page.getByRole('button', { name: 'Fill in again' })
    if (await again.isVisible()) await again.click()
    await fieldIn(page, 'Note').fill(op.id, { timeout: 15_000 })
    await fieldIn(page, 'By').fill(op.actor, { timeout: 15_000 })
  } catch {
    op.ack = 'refused' // never sent: nothing may arrive
    return op
  }
  try {
    await page.getByRole('button', { name: 'Send', exact: true }).click({ timeout: 15_000 })
    // Either the answer (sent, or kept on the device) or the refusal, both said by the page.
    const refused = page.locator('.form-error')
    await expect(done.or(refused)).toBeVisible({ timeout: 60_000 })
    op.ack = (await done.isVisible()) ? 'acked' : 'refused'
  } catch {
    // The page never said: the entry may be stored (then it is sent once) or not at all.
  }
  return op
}

/** Problems found; empty when every acknowledged submission made one document and nothing else did. */
export function checkSubmissions(ops: Op[], docs: Array<Record<string, unknown>>, log: Change[]): string[] {
  const problems: string[] = []
  const byNote = new Map<string, number>()
  for (const d of docs) byNote.set(String(d.note), (byNote.get(String(d.note)) ?? 0) + 1)
  const subs = ops.filter((o) => o.kind === 'submission')
  for (const o of subs) {
    const n = byNote.get(o.doc) ?? 0
    if (n > 1) problems.push(`submission ${o.doc} stored ${n} times`)
    if (o.ack === 'acked' && n === 0) problems.push(`acknowledged submission ${o.doc} never stored`)
  }
  const made = new Set(subs.filter((o) => o.ack !== 'refused').map((o) => o.doc))
  for (const d of docs)
    if (!made.has(String(d.note)))
      problems.push(`${FORM_TARGET}/${d._id} (note ${d.note}) was never submitted`)
  const created = new Map<string, number>()
  for (const c of log)
    if (c.collection === FORM_TARGET && c.op === 'upsert' && c.rev === 1)
      created.set(c.id, (created.get(c.id) ?? 0) + 1)
  for (const [id, n] of created) if (n > 1) problems.push(`${FORM_TARGET}/${id} created ${n} times`)
  return problems
}
