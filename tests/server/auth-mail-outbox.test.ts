/**
 * The mail outbox over a real SQLite store and a real local SMTP server, with a controllable clock so
 * backoff is tested without waiting: retry after a temporary refusal, give up after the limit, stay
 * queued without SMTP, and never send one mail twice when two senders share the store.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { createMailService, MAIL_COLLECTION, type MailService } from '../../src/server/mail/outbox'
import { openStore } from '../../src/server/store/open'
import type { DocumentStore } from '../../src/server/store/types'
import { type SmtpPeer, startSmtpPeer } from '../helpers/smtp'

let smtp: SmtpPeer
let store: DocumentStore
let dataDir: string
let clock: number
const services: MailService[] = []
const logs: string[] = []

function mailService(options: { smtp?: boolean; maxAttempts?: number } = {}): MailService {
  const service = createMailService({
    store,
    smtpUrl: options.smtp === false ? undefined : smtp.url,
    from: 'Momentum <outbox@momentum.test>',
    log: (level, message) => logs.push(`${level} ${message}`),
    retryBaseMs: 60_000,
    maxAttempts: options.maxAttempts,
    tickMs: 3_600_000,
    now: () => clock,
  })
  services.push(service)
  return service
}
const mailDoc = async (id: string) => (await store.get(MAIL_COLLECTION, id))!

beforeAll(async () => {
  smtp = await startSmtpPeer()
})
afterAll(async () => {
  await smtp?.close()
})
beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-mail-'))
  store = await openStore({ ...configFromEnv({}), dataDir })
  clock = Date.parse('2026-03-01T10:00:00Z')
  smtp.rejectWith = null
  logs.length = 0
})
afterEach(async () => {
  for (const s of services.splice(0)) await s.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('mail outbox', () => {
  it('stores, sends and marks a mail sent', async () => {
    const mail = mailService()
    const id = await mail.queue({
      to: 'ann@example.com',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>Hi</p>',
    })
    await mail.flush()
    const received = await smtp.waitForMail((m) => m.to.includes('ann@example.com'))
    expect(received.from).toBe('outbox@momentum.test')
    expect(received.decoded).toContain('Subject: Hello')
    expect(received.decoded).toContain('Plain body')
    const doc = await mailDoc(id)
    expect(doc).toMatchObject({ status: 'sent', attempts: 1 })
    expect(doc.lastError ?? null).toBeNull()
    // Internal: never in the change log that sync serves.
    expect((await store.changes(0, 100)).changes.some((c) => c.collection === MAIL_COLLECTION)).toBe(false)
  })

  it('retries with backoff after a temporary refusal', async () => {
    const mail = mailService()
    smtp.rejectWith = 451
    const id = await mail.queue({ to: 'ben@example.com', subject: 'Retry me', text: 'Body' })
    await mail.flush()
    const first = await mailDoc(id)
    expect(first).toMatchObject({ status: 'queued', attempts: 1 })
    expect(Date.parse(String(first.nextAttempt))).toBe(clock + 60_000)

    smtp.rejectWith = null
    await mail.flush() // not due yet
    expect(await mailDoc(id)).toMatchObject({ status: 'queued', attempts: 1 })

    clock += 60_000
    await mail.flush()
    expect(await mailDoc(id)).toMatchObject({ status: 'sent', attempts: 2 })
    expect(smtp.mails.filter((m) => m.to.includes('ben@example.com'))).toHaveLength(1)
  })

  it('gives up after the attempt limit and logs an error', async () => {
    const mail = mailService({ maxAttempts: 2 })
    smtp.rejectWith = 550
    const id = await mail.queue({ to: 'cy@example.com', subject: 'Doomed', text: 'Body' })
    await mail.flush()
    clock += 60_000
    await mail.flush()
    expect(await mailDoc(id)).toMatchObject({ status: 'failed', attempts: 2 })
    clock += 3_600_000
    await mail.flush()
    expect((await mailDoc(id)).attempts).toBe(2)
    expect(logs.some((l) => l.startsWith('ERROR') && l.includes(id))).toBe(true)
  })

  it('keeps mail queued and logged when no SMTP server is configured', async () => {
    const mail = mailService({ smtp: false })
    const id = await mail.queue({ to: 'dee@example.com', subject: 'Later', text: 'Body' })
    await mail.flush()
    expect(await mailDoc(id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(logs.some((l) => l.includes(id) && l.includes('MOMENTUM_SMTP_URL'))).toBe(true)

    // Configured later (a restart with MOMENTUM_SMTP_URL): the waiting mail goes out.
    const later = mailService()
    await later.flush()
    expect(await mailDoc(id)).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('sends a mail once when two senders share the store', async () => {
    const a = mailService({ smtp: false })
    const ids = [
      await a.queue({ to: 'eve@example.com', subject: 'One', text: '1' }),
      await a.queue({ to: 'eve@example.com', subject: 'Two', text: '2' }),
      await a.queue({ to: 'eve@example.com', subject: 'Three', text: '3' }),
    ]
    const before = smtp.mails.length
    await Promise.all([mailService().flush(), mailService().flush()])
    const got = smtp.mails.slice(before).filter((m) => m.to.includes('eve@example.com'))
    expect(got).toHaveLength(3)
    for (const id of ids) expect(await mailDoc(id)).toMatchObject({ status: 'sent', attempts: 1 })
  })
})
