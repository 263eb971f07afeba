/**
 * A TCP hop between the browser and the e2e server that counts the bytes the browser sends and can cut
 * every connection once a given number has gone through, as a dropped link would in the middle of an
 * upload. Below HTTP on purpose: the browser sees a real broken connection (not a Playwright route
 * abort), and the count is what reached the server, headers and all.
 */
import net from 'node:net'
import type { E2EServer } from './fixtures'

export interface ByteProxy {
  /** The console's origin through the proxy, e.g. http://127.0.0.1:41000 */
  url: string
  via(server: E2EServer): E2EServer
  /** Bytes the browser sent through the proxy since it started. */
  sent(): number
  /** Cuts every connection once `sent()` reaches `bytes` (once; then it relays again). */
  cutAt(bytes: number): void
  /** How many times connections were cut. */
  cuts(): number
  /** Stops reading from the connections open once `sent()` reaches `bytes` (a link gone silent); new connections still flow. */
  holdAt(bytes: number): void
  /** Breaks the held connections (the silent link finally fails); new ones already flow. */
  dropHeld(): void
  close(): Promise<void>
}

export async function startByteProxy(target: string): Promise<ByteProxy> {
  const upstream = new URL(target)
  const open = new Set<net.Socket>()
  let sent = 0
  let cutAt = Number.POSITIVE_INFINITY
  let cuts = 0
  let holdAt = Number.POSITIVE_INFINITY
  const held = new Set<net.Socket>()

  const cutAll = () => {
    cutAt = Number.POSITIVE_INFINITY
    cuts++
    for (const s of open) s.destroy()
    open.clear()
  }

  const server = net.createServer((client) => {
    const up = net.connect(Number(upstream.port), upstream.hostname)
    open.add(client)
    open.add(up)
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length
      // Backpressure: the browser sends only as fast as the server reads, so the count is what the
      // server received and a cut loses little in the proxy's buffers.
      if (!up.write(chunk)) client.pause()
      if (sent >= cutAt) cutAll()
      if (sent >= holdAt) {
        holdAt = Number.POSITIVE_INFINITY
        for (const s of open) {
          s.pause()
          held.add(s)
        }
      }
    })
    up.on('drain', () => {
      if (!held.has(client)) client.resume()
    })
    up.on('data', (chunk: Buffer) => client.write(chunk))
    const end = () => {
      client.destroy()
      up.destroy()
      open.delete(client)
      open.delete(up)
    }
    client.on('close', end)
    up.on('close', end)
    client.on('error', end)
    up.on('error', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  const proxy: ByteProxy = {
    url: `http://127.0.0.1:${port}`,
    via: (s) => ({ ...s, ui: `${proxy.url}/ui` }),
    sent: () => sent,
    cutAt(bytes) {
      cutAt = bytes
    },
    cuts: () => cuts,
    holdAt(bytes) {
      holdAt = bytes
    },
    dropHeld() {
      for (const s of held) s.destroy()
      held.clear()
    },
    async close() {
      for (const s of open) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return proxy
}
