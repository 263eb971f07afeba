/**
 * One HTTP request sent over a raw socket exactly as written, so no client normalises the target
 * (`..`, `#`, `%2e`, doubled slashes). Used where a test must reach the router with such a path.
 */
import net from 'node:net'

export interface RawResponse {
  status: number
  headers: string
  body: string
}

export function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  token: string,
  json?: unknown,
): Promise<RawResponse> {
  const { port } = new URL(baseUrl)
  const body = json === undefined ? '' : JSON.stringify(json)
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${token}`,
    'Connection: close',
    ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
  ]
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      resolve({ status, headers: text.slice(0, split), body: text.slice(split + 4) })
    })
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`)
  })
}
