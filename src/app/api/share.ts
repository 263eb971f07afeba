/**
 * Share links (contract C2, server: src/server/storage/share.ts). createShareLink is what the
 * file browser's "Copy link" calls; the download page (routes/download) reads a link's metadata and
 * bytes without a session.
 */
import type { StorageRoot } from '../../shared/storage'
import { api } from './client'

export interface ShareLink {
  /** Absolute, origin included: the platform's /ui/download?t=…, ready to copy. */
  url: string
  /** ISO 8601. */
  expires: string
}

/** What GET /api/share/{token} answers. */
export interface SharedFile {
  name: string
  size: number
  type: string
  modified: string
}

/**
 * A signed link to one file that works logged out until it expires (default SHARE_DEFAULT_SECONDS).
 * The URL is made against the API base, not this page's origin: in a desktop wrapper the page lives at
 * file:// or app://, and the recipient needs the platform that serves /ui/download.
 */
export async function createShareLink(
  root: StorageRoot,
  path: string,
  expiresInSeconds?: number,
): Promise<ShareLink> {
  const res = await api.request<ShareLink>('/api/share', {
    method: 'POST',
    body: expiresInSeconds === undefined ? { root, path } : { root, path, expiresIn: expiresInSeconds },
  })
  return { url: new URL(res.url, `${api.base()}/`).href, expires: res.expires }
}

/** The API addresses of a link's token. */
export const sharedFileUrl = (token: string): string => `/api/share/${encodeURIComponent(token)}`
export const sharedBytesUrl = (token: string): string => `${api.base()}${sharedFileUrl(token)}/file`

export function sharedFile(token: string): Promise<SharedFile> {
  return api.get<SharedFile>(sharedFileUrl(token))
}
