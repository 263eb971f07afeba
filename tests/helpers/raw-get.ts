/**
 * A GET over node:http that hands back the body as it was sent (not decoded, unlike fetch), for tests
 * of Content-Encoding.
 */
import http from 'node:http'

export interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        )
      })
      .on('error', reject)
  })
}
