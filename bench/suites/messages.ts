/**
 * 12. Messages (issue 13): mails per second through the message queue (POST /api/email to a real
 * server in this process, records written, claimed, sent by nodemailer and marked sent) against
 * nodemailer sending the same mails directly, one after another as the queue does, to the same local
 * SMTP server (smtp-server, in this process). Rounds alternate the two; medians; the figure is their
 * ratio. Needs no browser and no console build: bench/run.ts skips the build when only suites like
 * this one are selected (`--only=messages`).
 */
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { configFromEnv } from '../../src/server/config'
import { startServer } from '../../src/server/server'
import type { BenchContext } from '../lib/context'
import { median, type Row, round, row } from '../lib/stats'

export interface MessagesBenchOptions {
  mails: number
  rounds: number
}

const PASSWORD = 'bench-admin-password'

const mail = (i: number) => ({
  from: 'Bench <bench@momentum.test>',
  to: `user${i}@example.com`,
  subject: `Bench ${i}`,
  text: `Hello user${i}, this is mail ${i}.`,
  html: `<p>Hello <b>user${i}</b>, this is mail ${i}.</p>`,
})

/** The SMTP peer both contenders send to; counts the mails it received. */
async function smtpPeer() {
  const peer = { received: 0, url: '', close: () => {} }
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    // A reverse DNS lookup per connection would be most of what is measured.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => {
        peer.received++
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  peer.url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
  peer.close = () => smtp.close()
  return peer
}

type Peer = Awaited<ReturnType<typeof smtpPeer>>

async function direct(peer: Peer, mails: number): Promise<number> {
  // The queue's own transport options (src/server/messages/providers.ts), one mail at a time.
  const transport = nodemailer.createTransport({
    url: peer.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
  })
  const start = performance.now()
  for (let i = 0; i < mails; i++) await transport.sendMail(mail(i))
  const ms = performance.now() - start
  transport.close()
  return (mails * 1000) / ms
}

async function queued(peer: Peer, mails: number): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-mail-'))
  const server = await startServer({
    ...configFromEnv({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: path.join(dataDir, 'static'),
    uiDir: path.join(dataDir, 'no-ui'),
    adminPassword: PASSWORD,
    seed: 'none',
    quiet: true,
    smtpUrl: peer.url,
    mailFrom: 'Bench <bench@momentum.test>',
  })
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    })
    const { token } = (await login.json()) as { token: string }
    const before = peer.received
    const start = performance.now()
    // Requests of 100 recipients, as a console would send to groups; each mail differs by recipient.
    for (let first = 0; first < mails; first += 100) {
      const to = Array.from(
        { length: Math.min(100, mails - first) },
        (_, k) => `user${first + k}@example.com`,
      )
      const res = await fetch(`${server.url}/api/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ to, subject: 'Bench', text: 'Hello, this is a mail.', html: '<p>Hello</p>' }),
      })
      if (res.status !== 202) throw new Error(`POST /api/email answered ${res.status}: ${await res.text()}`)
    }
    const { store } = server.services
    for (;;) {
      const { total } = await store.list('messages', { filter: { status: 'sent' }, limit: 1 })
      if (total >= mails) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - start
    if (peer.received - before < mails) throw new Error('not every mail arrived')
    return (mails * 1000) / ms
  } finally {
    await server.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function messagesSuite(
  ctx: Pick<BenchContext, 'log'>,
  opts: MessagesBenchOptions,
): Promise<{ rows: Row[]; details: unknown }> {
  const peer = await smtpPeer()
  const rates = { direct: [] as number[], queued: [] as number[] }
  try {
    for (let r = 0; r < opts.rounds; r++) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      const order = r % 2 === 0 ? (['direct', 'queued'] as const) : (['queued', 'direct'] as const)
      for (const which of order) {
        ctx.log(`messages: round ${r + 1}/${opts.rounds}, ${which}, ${opts.mails} mails`)
        rates[which].push(
          which === 'direct' ? await direct(peer, opts.mails) : await queued(peer, opts.mails),
        )
      }
    }
  } finally {
    peer.close()
  }
  return {
    rows: [
      row({
        bench: '12 messages',
        metric: `mails/s through the queue (POST /api/email, 100 recipients a request, ${opts.mails} mails)`,
        value: median(rates.queued),
        unit: 'mail/s',
        baseline: 'nodemailer sending directly, one after another',
        baselineValue: median(rates.direct),
      }),
    ],
    details: {
      ...opts,
      queuedPerSecond: rates.queued.map((n) => round(n)),
      directPerSecond: rates.direct.map((n) => round(n)),
    },
  }
}
