/**
 * Messages and PDF from action scripts (issue 15, docs/operating/actions.md) against the real server: an e-mail
 * sent by a script goes through the durable queue to a real SMTP peer, a PDF made by a script lands in
 * Storage (read back with pdftotext), each only with the run-as user's permissions, and a debug run
 * checks both without sending or saving anything.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES_COLLECTION } from '../../src/shared/messaging'
import { pdfText } from '../helpers/pdf-text'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'
import { suiteServer } from '../helpers/suite-server'

let smtp: SmtpPeer

beforeAll(async () => {
  smtp = await startSmtpPeer()
}, 60_000)
afterAll(async () => {
  await smtp?.close()
})
const server = suiteServer(() => ({ smtpUrl: smtp.url }))
beforeAll(async () => {
  expect(
    (await server.api('/api/storage', { json: { directory: 'reports' }, token: server.admin })).status,
  ).toBe(201)
}, 60_000)

async function action(id: string, code: string, token = server.admin) {
  const res = await server.api('/api/actions', {
    json: { _id: id, name: id, trigger: { type: 'POST' }, code, timeLimitMs: 10_000 },
    token,
  })
  expect(res.status, res.text).toBe(201)
}

const run = (id: string, token = server.admin, json: unknown = {}) =>
  server.api(`/api/actions/run/${id}`, { json, token })

describe('messages.send', () => {
  it('queues an e-mail as the run-as user, and the queue delivers it', async () => {
    await action(
      'mailer',
      "const r = await messages.send('email', { to: input.body.to, subject: 'Hi', text: 'Sent by an action' })\nreturn r",
    )
    const res = await run('mailer', server.admin, { to: 'ann@example.com' })
    expect(res.status, res.text).toBe(200)
    const body = res.body as { batch: string; messages: Array<{ _id: string; to: string; status: string }> }
    expect(body.messages).toEqual([expect.objectContaining({ to: 'ann@example.com', status: 'queued' })])
    const mail = await smtp.waitForMail((m) => m.to.includes('ann@example.com'))
    expect(mail.decoded).toContain('Sent by an action')
    const record = await server.services.store.get(MESSAGES_COLLECTION, body.messages[0]!._id)
    expect(record).toMatchObject({ sentBy: 'admin', channel: 'email' })
  })

  it('needs messages/{channel}:c for the run-as user, and refuses a bad message with the API sentence', async () => {
    const editor = await server.userWith('msg-editor', ['actions:*'])
    await action(
      'mailer-2',
      "return await messages.send('email', { to: 'bo@example.com', subject: 'S', text: 'x' })",
      editor,
    )
    const refused = await run('mailer-2')
    expect(refused.status).toBe(422)
    expect((refused.body as { message: string }).message).toBe(
      'Error: messages: Requires one of: messages/email:c (line 1)',
    )
    await action('bad-sms', "return await messages.send('sms', { to: 'nobody', text: 'x' })")
    const bad = await run('bad-sms')
    expect(bad.status).toBe(422)
    expect((bad.body as { message: string }).message).toMatch(/^Error: messages: .*nobody/)
    await action('bad-channel', "return await messages.send('pigeon', { to: 'x' })")
    expect((await run('bad-channel')).text).toContain('channel must be email, sms, push or call')
  })
})

describe('pdf.create', () => {
  it('renders a PDF into Storage as the run-as user', async () => {
    await action(
      'invoice',
      "return await pdf.create({ html: '<h1>Invoice ' + input.body.n + '</h1>', save: { root: 'storage', path: 'reports/inv-' + input.body.n + '.pdf' } })",
    )
    const res = await run('invoice', server.admin, { n: 7 })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ path: 'reports/inv-7.pdf', contentType: 'application/pdf' })
    const file = path.join(server.dataDir, 'storage', 'reports', 'inv-7.pdf')
    expect(pdfText(fs.readFileSync(file))).toContain('Invoice 7')
  }, 60_000)

  it('needs pdf:c and the target permission, and a save target', async () => {
    const writer = await server.userWith('pdf-writer', ['actions:*', 'pdf:c'])
    await action(
      'pdf-no-store',
      "return await pdf.create({ html: '<p>x</p>', save: { root: 'storage', path: 'reports/x.pdf' } })",
      writer,
    )
    expect((await run('pdf-no-store')).text).toContain('pdf: Requires one of: storage/reports/x.pdf:c')
    const reader = await server.userWith('pdf-none', ['actions:*', 'storage:*'])
    await action(
      'pdf-no-pdf',
      "return await pdf.create({ html: '<p>x</p>', save: { root: 'storage', path: 'reports/y.pdf' } })",
      reader,
    )
    expect((await run('pdf-no-pdf')).text).toContain('pdf: Requires one of: pdf:c')
    await action('pdf-no-save', "return await pdf.create({ html: '<p>x</p>' })")
    expect((await run('pdf-no-save')).text).toContain('pdf: give save: {root, path}')
    expect(fs.existsSync(path.join(server.dataDir, 'storage', 'reports', 'x.pdf'))).toBe(false)
    expect(fs.existsSync(path.join(server.dataDir, 'storage', 'reports', 'y.pdf'))).toBe(false)
  })
})

describe('debug runs', () => {
  it('check messages and PDFs but neither send nor save them unless asked', async () => {
    await action(
      'both',
      "const m = await messages.send('email', { to: 'cy@example.com', subject: 'S', text: 'dry' })\nconst p = await pdf.create({ html: '<p>dry</p>', save: { root: 'storage', path: 'reports/dry.pdf' } })\nreturn [m.messages[0].dryRun, p.dryRun, p.path]",
    )
    const before = (await server.services.store.list(MESSAGES_COLLECTION, {})).total
    const res = await server.api('/api/actions/debug/both', { json: {}, token: server.admin })
    expect(res.status, res.text).toBe(200)
    const body = res.body as { result: unknown; writes: Array<{ op: string }> }
    expect(body.result, res.text).toEqual([true, true, 'reports/dry.pdf'])
    expect(body.writes.map((w) => w.op)).toEqual(['send', 'pdf'])
    expect((await server.services.store.list(MESSAGES_COLLECTION, {})).total).toBe(before)
    expect(fs.existsSync(path.join(server.dataDir, 'storage', 'reports', 'dry.pdf'))).toBe(false)
    expect(smtp.mails.some((m) => m.to.includes('cy@example.com'))).toBe(false)
  })
})
