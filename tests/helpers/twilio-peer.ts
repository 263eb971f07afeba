/**
 * A local HTTP peer speaking Twilio's Messages REST API (2010-04-01) for tests: it accepts
 * POST /2010-04-01/Accounts/{sid}/Messages.json with HTTP basic auth (account SID and auth token) and
 * a form-encoded To, From (or MessagingServiceSid) and Body, and answers 201 with a message resource
 * as Twilio does; wrong credentials are 401 and a missing field 400, with Twilio's error JSON. A test
 * can make it answer an error (`failWith`) or hold requests unanswered (`hold`/`release`) to stop a
 * server mid-send.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedSms {
  sid: string
  to: string
  from: string
  body: string
}

export interface TwilioPeer {
  /** http://127.0.0.1:port: the base URL (MOMENTUM_SMS_URL). */
  url: string
  accountSid: string
  authToken: string
  /** Messages answered 201, in order. */
  messages: ReceivedSms[]
  /** Every request that reached the Messages endpoint, answered or not. */
  requests: number
  /** Status to answer instead of 201 (e.g. 500); null accepts. */
  failWith: number | null
  /** From now on, requests wait unanswered until release(). */
  hold(): void
  /** Answers the held requests (201, or failWith) and stops holding. */
  release(): void
  /** Resolves once `count` requests have reached the endpoint. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>
  /** Resolves once `count` messages have been accepted. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedSms[]>
  close(): Promise<void>
}

export async function startTwilioPeer(): Promise<TwilioPeer> {
  const accountSid = `AC${crypto.randomBytes(16).toString('hex')}`
  const authToken = crypto.randomBytes(16).toString('hex')
  const held: Array<() => void> = []
  let holding = false
  const watchers = new Set<() => void>()
  const changed = () => {
    for (const w of [...watchers]) w()
  }
  const until = (done: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve()
      const check = () => {
        if (!done()) return
        watchers.delete(check)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        watchers.delete(check)
        reject(
          new Error(
            `Twilio peer: ${what} did not happen (requests ${peer.requests}, accepted ${peer.messages.length})`,
          ),
        )
      }, timeoutMs)
      watchers.add(check)
    })

  const error = (res: http.ServerResponse, status: number, code: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
    )
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`
      if (req.method !== 'POST' || req.url !== path)
        return error(res, 404, 20404, 'The requested resource was not found')
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
      if (req.headers.authorization !== expected) return error(res, 401, 20003, 'Authenticate')
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return error(res, 400, 21620, 'Request body must be form-encoded')
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
      const to = form.get('To')
      const from = form.get('From') ?? form.get('MessagingServiceSid')
      const body = form.get('Body')
      if (!to) return error(res, 400, 21604, "A 'To' phone number is required.")
      if (!from) return error(res, 400, 21603, "A 'From' phone number is required.")
      if (!body) return error(res, 400, 21602, 'Message body is required.')
      peer.requests++
      changed()
      const answer = () => {
        if (peer.failWith !== null) return error(res, peer.failWith, 20500, 'Internal Server Error')
        const sid = `SM${crypto.randomBytes(16).toString('hex')}`
        peer.messages.push({ sid, to, from, body })
        changed()
        res.writeHead(201, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            sid,
            account_sid: accountSid,
            to,
            from,
            body,
            status: 'queued',
            num_segments: '1',
            direction: 'outbound-api',
            api_version: '2010-04-01',
            date_created: new Date().toUTCString(),
            uri: `${path.replace('.json', '')}/${sid}.json`,
          }),
        )
      }
      if (holding) held.push(answer)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const peer: TwilioPeer = {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages: [],
    requests: 0,
    failWith: null,
    hold() {
      holding = true
    },
    release() {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
    waitForRequests: (count, timeoutMs = 10_000) =>
      until(() => peer.requests >= count, `${count} requests`, timeoutMs),
    async waitForMessages(count, timeoutMs = 10_000) {
      await until(() => peer.messages.length >= count, `${count} messages`, timeoutMs)
      return peer.messages
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return peer
}
