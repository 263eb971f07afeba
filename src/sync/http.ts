/**
 * One REST call through the transport port, answered as data: either the server's status and decoded
 * body, or "unreachable" (fetch threw: offline, DNS, reset, a response lost on the way back). Callers
 * decide what each means; nothing here retries.
 */
import type { TransportPort } from './ports'

export interface HttpOutcome {
  ok: boolean
  /** 0 when the server could not be reached or its answer was lost. */
  status: number
  body: unknown
  headers: Headers
  error?: unknown
}

export async function call(
  transport: TransportPort,
  origin: string,
  path: string,
  init: { method: string; token: string | null; body?: unknown; headers?: Record<string, string> },
): Promise<HttpOutcome> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  let body: string | undefined
  if (init.body !== undefined && init.body !== null) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(init.body)
  }
  let res: Response
  let text: string
  try {
    res = await transport.fetch(origin + path, { method: init.method, headers, body })
    text = await res.text()
  } catch (error) {
    return { ok: false, status: 0, body: null, headers: new Headers(), error }
  }
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    // Not JSON (a proxy's error page): keep the text as the message.
  }
  return { ok: res.ok, status: res.status, body: parsed, headers: res.headers }
}

export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message
  }
  return typeof body === 'string' && body ? body.slice(0, 200) : fallback
}
