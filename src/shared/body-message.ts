/**
 * The readable message of an HTTP answer's body, as the console shows it: the server's `{message}`,
 * else its `{error}` code, else a short text body, else the status line. One rule for the API client
 * and the offline queues, so a refusal reads the same wherever it surfaces.
 */
export function bodyMessage(status: number, body: unknown, statusText = ''): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown }
    if (typeof b.message === 'string' && b.message) return b.message
    if (typeof b.error === 'string' && b.error) return b.error
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300)
  return statusText || `HTTP ${status}`
}
