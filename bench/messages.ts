/**
 * `npx tsx bench/messages.ts [--mails=500] [--rounds=3]`: mails per second through the message queue
 * (POST /api/email to a real server, records written, claimed, sent by nodemailer and marked sent)
 * against nodemailer sending the same mails directly, one after another as the queue does, to the same
 * local SMTP server (smtp-server, in this process). Rounds alternate the two; medians are reported and
 * the figure is their ratio (bench/README.md: absolute times on a shared machine mean little).
 * Standalone rather than a suite of bench/run.ts: it needs no browser and no console build.
 */
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { configFromEnv } from '../src/server/config'
import { startServer } from '../src/server/server'

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const MAILS = arg('mails', 500)
const ROUNDS = arg('rounds', 3)
const PASSWORD = 'bench-admin-password'

let received = 0
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  // A reverse DNS lookup per connection would be most of what is measured.
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {})
    stream.on('end', () => {
      received++
      callback()
    })
  },
})
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
const mail = (i: number) => ({
  from: 'Bench <bench@momentum.test>',
  to: `user${i}@example.com`,
  subject: `Bench ${i}`,
  text: `Hello user${i}, this is mail ${i}.`,
  html: `<p>Hello <b>user${i}</b>, this is mail ${i}.</p>`,
})

async function direct(): Promise<number> {
  // The queue's own transport options (src/server/messages/providers.ts), one mail at a time.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
  })
  const start = performance.now()
  for (let i = 0; i < MAILS; i++) await transport.sendMail(mail(i))
  const ms = performance.now() - start
  transport.close()
  return (MAILS * 1000) / ms
}

async function queued(): Promise<number> {
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
    smtpUrl,
    mailFrom: 'Bench <bench@momentum.test>',
  })
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    })
    const { token } = (await login.json()) as { token: string }
    const before = received
    const start = performance.now()
    // Requests of 100 recipients, as a console would send to groups; each mail differs by recipient.
    for (let first = 0; first < MAILS; first += 100) {
      const to = Array.from(
        { length: Math.min(100, MAILS - first) },
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
      if (total >= MAILS) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - start
    if (received - before < MAILS) throw new Error('not every mail arrived')
    return (MAILS * 1000) / ms
  } finally {
    await server.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const rates = { direct: [] as number[], queued: [] as number[] }
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always runs on a warmer machine.
  const order = round % 2 === 0 ? (['direct', 'queued'] as const) : (['queued', 'direct'] as const)
  for (const which of order) rates[which].push(which === 'direct' ? await direct() : await queued())
}
const result = {
  mails: MAILS,
  rounds: ROUNDS,
  directPerSecond: Math.round(median(rates.direct)),
  queuedPerSecond: Math.round(median(rates.queued)),
  ratio: Number((median(rates.queued) / median(rates.direct)).toFixed(2)),
}
console.log(JSON.stringify(result, null, 2))
fs.mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
fs.writeFileSync(
  new URL('./results/latest-messages.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
)
smtp.close()
