/**
 * The one HTTP client of the console (SPEC §7 General). Every call to the platform goes through here so
 * that the base URL, the bearer token, credentials, de-duplication and the 401 → session-expired signal
 * behave the same everywhere. The pure parts (base URL, URL building, method and body rules, response
 * decoding) are exported separately and tested in node; `createApiClient` takes its ports (fetch, base,
 * XHR) as parameters so tests can run it against a real local server.
 */
import { bodyMessage } from '../../shared/body-message'
import { UI_TEXT } from '../../shared/texts'
import { apiBase } from './base'
import { announceReachable } from './reachable'

export { apiBase, DEV_API_PORT, DEV_SERVER_PORT, type MomentumEnv, type PageLocation } from './base'

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[]
export type Query = Record<string, QueryValue>

/** Appends query parameters; null/undefined are left out, arrays repeat the key. */
export function buildUrl(base: string, path: string, query?: Query): string {
  const url = /^https?:\/\//.test(path) ? path : `${base}${path.startsWith('/') ? '' : '/'}${path}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v))
    else params.append(key, String(value))
  }
  const qs = params.toString()
  if (!qs) return url
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`
}

export function resolveMethod(method: string | undefined, body: unknown): string {
  return (method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase()
}

/** Objects go as JSON, FormData as multipart (the browser sets the boundary), anything else as is. */
export function encodeBody(body: unknown): { body?: BodyInit; contentType?: string } {
  if (body === undefined) return {}
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { body }
  if (
    typeof body === 'string' ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams
  ) {
    return { body: body as BodyInit }
  }
  return { body: JSON.stringify(body), contentType: 'application/json' }
}

/** Non-2xx responses reject with this: the decoded body, its status, and a readable message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The server's `{error}` code, when it sent one. */
  get code(): string | undefined {
    const b = this.body as { error?: unknown } | null
    return typeof b?.error === 'string' ? b.error : undefined
  }
}

/** Decodes a body by its content type: JSON, text, or a Blob for files. */
export async function decodeBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined
  const type = res.headers.get('content-type') ?? ''
  if (type.includes('json')) {
    const text = await res.text()
    if (!text) return undefined
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  if (type.startsWith('text/') || type === '' || type.includes('xml')) return res.text()
  return res.blob()
}

/**
 * SPEC §4: a 401 anywhere except the login, password and totp calls means the session has expired.
 * Those three answer 401 for a wrong password or code, which is the user's typo, not an expiry.
 */
export function isSessionExpiry(status: number, url: string): boolean {
  if (status !== 401) return false
  const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!
  return !/^\/api\/auth\/(login|password|totp)(\/|$)/.test(path)
}

export interface RequestOptions {
  method?: string
  body?: unknown
  query?: Query
  headers?: Record<string, string>
  signal?: AbortSignal
}

export interface UploadOptions {
  method?: string
  /** Extra multipart fields sent before the files. */
  fields?: Record<string, string>
  query?: Query
  /** Fraction 0..1 plus the raw byte counts. */
  onProgress?: (fraction: number, loaded: number, total: number) => void
  timeoutMs?: number
  signal?: AbortSignal
}

/** Long enough for the 20 MB upload limit on a slow link, short enough that a dead one gives up. */
export const UPLOAD_TIMEOUT_MS = 5 * 60_000

export interface ClientPorts {
  fetch: typeof fetch
  /** Read on every call so a wrapper or test can change it. */
  base: () => string
  /** XMLHttpRequest constructor for uploads (progress events); absent in node. */
  xhr?: () => XMLHttpRequest
}

export type UnauthorizedListener = (url: string, error: ApiError) => void

export function createApiClient(ports: ClientPorts) {
  let token: string | null = null
  const unauthorized = new Set<UnauthorizedListener>()
  const inFlight = new Map<string, Promise<unknown>>()

  const authHeaders = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})

  const fail = (url: string, error: ApiError): never => {
    if (isSessionExpiry(error.status, url)) for (const l of unauthorized) l(url, error)
    throw error
  }

  // A network failure, then any answer: the server is back (reachable.ts wakes the queues).
  let unreachable = false
  const fetched = async (url: string, init: RequestInit): Promise<Response> => {
    let res: Response
    try {
      res = await ports.fetch(url, init)
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) unreachable = true
      throw error
    }
    // 502/504 are a proxy saying the server is not there.
    if (unreachable && res.status !== 502 && res.status !== 504) {
      unreachable = false
      announceReachable()
    }
    return res
  }

  async function send<T>(url: string, method: string, opts: RequestOptions): Promise<T> {
    const { body, contentType } = encodeBody(opts.body)
    const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(), ...opts.headers }
    if (contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = contentType
    }
    const res = await fetched(url, { method, headers, body, credentials: 'include', signal: opts.signal })
    const decoded = await decodeBody(res)
    if (!res.ok)
      return fail(url, new ApiError(res.status, decoded, bodyMessage(res.status, decoded, res.statusText)))
    return decoded as T
  }

  /**
   * One call. Identical GETs (same URL, headers and token) that are still in flight share one
   * request: screens mounting together ask for the same thing, and the server answers once.
   */
  function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    const method = resolveMethod(opts.method, opts.body)
    const url = buildUrl(ports.base(), path, opts.query)
    if (method !== 'GET' || opts.signal) return send<T>(url, method, opts)
    const key = JSON.stringify([url, token, opts.headers ?? null])
    const existing = inFlight.get(key)
    if (existing) return existing as Promise<T>
    const promise = send<T>(url, method, opts).finally(() => inFlight.delete(key))
    inFlight.set(key, promise)
    return promise
  }

  /** SPEC §7: multipart files, each under the field name `file`, with progress and a timeout. */
  function upload<T = unknown>(
    path: string,
    files: Blob | readonly Blob[] | FileList,
    opts: UploadOptions = {},
  ): Promise<T> {
    if (!ports.xhr) return Promise.reject(new Error('Uploads need XMLHttpRequest'))
    const form = new FormData()
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v)
    const list = files instanceof Blob ? [files] : Array.from(files as ArrayLike<Blob>)
    for (const f of list) form.append('file', f)
    const url = buildUrl(ports.base(), path, opts.query)
    const xhr = ports.xhr()
    return new Promise<T>((resolve, reject) => {
      xhr.open((opts.method ?? 'POST').toUpperCase(), url)
      xhr.withCredentials = true
      xhr.timeout = opts.timeoutMs ?? UPLOAD_TIMEOUT_MS
      for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v)
      xhr.setRequestHeader('accept', 'application/json')
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) opts.onProgress?.(e.total ? e.loaded / e.total : 1, e.loaded, e.total)
      }
      xhr.ontimeout = () => reject(new Error(UI_TEXT.requestTimedOut))
      xhr.onerror = () => reject(new TypeError('Network error'))
      xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'))
      opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true })
      xhr.onload = () => {
        let body: unknown = xhr.responseText
        if ((xhr.getResponseHeader('content-type') ?? '').includes('json')) {
          try {
            body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined
          } catch {
            // Keep the text: a proxy's HTML error page is still worth showing.
          }
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          opts.onProgress?.(1, 1, 1)
          resolve(body as T)
          return
        }
        try {
          fail(url, new ApiError(xhr.status, body, bodyMessage(xhr.status, body, xhr.statusText)))
        } catch (e) {
          reject(e)
        }
      }
      xhr.send(form)
    })
  }

  return {
    request,
    upload,
    get: <T = unknown>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
      request<T>(path, { ...opts, method: 'GET' }),
    /** The API origin, e.g. for image addresses built from ids. */
    base: () => ports.base(),
    setToken(next: string | null) {
      token = next
    },
    getToken: () => token,
    /** Called for every session-expiry 401 (see isSessionExpiry); returns an unsubscribe. */
    onUnauthorized(listener: UnauthorizedListener): () => void {
      unauthorized.add(listener)
      return () => unauthorized.delete(listener)
    },
  }
}

export type ApiClient = ReturnType<typeof createApiClient>

function browserBase(): string {
  return apiBase(window.location, window.__MOMENTUM_ENV__)
}

/** The console's client. Node tests build their own with createApiClient. */
export const api: ApiClient = createApiClient({
  fetch: (...args) => globalThis.fetch(...args),
  base: browserBase,
  xhr: () => new XMLHttpRequest(),
})
