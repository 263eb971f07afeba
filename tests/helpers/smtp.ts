/**
 * A real local SMTP server (the npm `smtp-server` library) for mail tests, so the outbox is tested
 * over the real protocol through nodemailer instead of a mock. It stores every mail it accepts and can
 * refuse recipients with a temporary (4xx) or permanent (5xx) SMTP error to exercise retries.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
  /** The raw message with quoted-printable soft breaks and escapes undone, good enough to find text. */
  decoded: string
}

export interface SmtpPeer {
  /** smtp://127.0.0.1:port, for config.smtpUrl */
  url: string
  mails: ReceivedMail[]
  /** SMTP code for the next RCPT TO commands, e.g. 451 (temporary) or 550; null accepts. */
  rejectWith: number | null
  /** Resolves with the first mail (already received or arriving later) that matches. */
  waitForMail(match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = []
  const waiters: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = []
  const peer: SmtpPeer = {
    url: '',
    mails,
    rejectWith: null,
    waitForMail(match = () => true, timeoutMs = 10_000) {
      const found = mails.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail arrived')), timeoutMs)
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer)
            resolve(m)
          },
        })
      })
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, no login to configure.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (peer.rejectWith === null) return callback()
      const err = new Error('Mailbox temporarily unavailable') as Error & { responseCode: number }
      err.responseCode = peer.rejectWith
      callback(err)
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        }
        mails.push(mail)
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1)
            w.resolve(mail)
          }
        }
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  peer.url = `smtp://127.0.0.1:${port}`
  return peer
}
