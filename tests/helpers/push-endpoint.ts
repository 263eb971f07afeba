/**
 * A local Web Push endpoint speaking the push-service side of RFC 8030/8291/8292, for tests: it
 * accepts what web-push sends, checks the VAPID JWT (ES256, audience = this origin, signed by the key
 * in `k=`), and DECRYPTS the aes128gcm payload with the subscriber's private key and auth secret, as
 * a browser would. Each subscription it hands out is a real P-256 key pair made with node:crypto.
 * `respondWith(id, 410)` makes it answer like a push service whose subscriber went away.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { importJWK, jwtVerify } from 'jose'

interface Ece {
  decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: crypto.ECDH; authSecret: Buffer },
  ): Buffer
}
// http_ece (web-push's own encryption library) ships no types; only decrypt is used.
const ece = createRequire(import.meta.url)('http_ece') as Ece

export interface FakeSubscription {
  id: string
  /** What PushSubscription.toJSON() gives: send it to PATCH /api/notifications. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
}

export interface ReceivedPush {
  subscription: string
  /** The decrypted payload, parsed as JSON. */
  payload: unknown
  ttl: string | undefined
  contentEncoding: string | undefined
  /** Claims of the verified VAPID JWT. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string }
}

export interface PushEndpoint {
  url: string
  received: ReceivedPush[]
  /** Requests it refused (bad VAPID, undecryptable body), with the reason. */
  rejected: string[]
  subscribe(): FakeSubscription
  /** Status to answer for one subscription from now on (201 by default). */
  respondWith(id: string, status: number): void
  close(): Promise<void>
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const keys = new Map<string, { ecdh: crypto.ECDH; auth: Buffer }>()
  const statusOf = new Map<string, number>()
  const received: ReceivedPush[] = []
  const rejected: string[] = []

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      handle(req, Buffer.concat(chunks)).then(
        (status) => res.writeHead(status).end(),
        (error: Error) => {
          rejected.push(error.message)
          res.writeHead(400).end(error.message)
        },
      )
    })
  })

  async function handle(req: http.IncomingMessage, body: Buffer): Promise<number> {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1]
    const sub = id ? keys.get(id) : undefined
    if (req.method !== 'POST' || !id || !sub) return 404
    const status = statusOf.get(id) ?? 201
    // A gone subscription answers before looking at the message, as real push services do.
    if (status === 404 || status === 410) return status
    const vapid = await verifyVapid(String(req.headers.authorization ?? ''), url)
    if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('content-encoding is not aes128gcm')
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth })
    received.push({
      subscription: id,
      payload: JSON.parse(plain.toString('utf8')),
      ttl: req.headers.ttl as string | undefined,
      contentEncoding: req.headers['content-encoding'],
      vapid,
    })
    return status
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    received,
    rejected,
    subscribe() {
      const id = crypto.randomBytes(9).toString('base64url')
      const ecdh = crypto.createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = crypto.randomBytes(16)
      keys.set(id, { ecdh, auth })
      return {
        id,
        json: {
          endpoint: `${url}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      }
    },
    respondWith(id, status) {
      statusOf.set(id, status)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed with the matching private key. */
async function verifyVapid(header: string, origin: string): Promise<ReceivedPush['vapid']> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header)
  if (!match) throw new Error(`Authorization is not a VAPID header: ${header}`)
  const [, token, k] = match as unknown as [string, string, string]
  const point = Buffer.from(k, 'base64url')
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point')
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  )
  const { payload } = await jwtVerify(token, key, { audience: origin, algorithms: ['ES256'] })
  if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number')
    throw new Error('VAPID JWT lacks sub or exp')
  return { aud: String(payload.aud), sub: payload.sub, exp: payload.exp, publicKey: k }
}
