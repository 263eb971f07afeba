/**
 * The storage domain's route table: the two roots (index.ts registers them, read.ts, write.ts and
 * upload.ts answer), share links (share.ts), resumable uploads (tus.ts) and the Web Server root at
 * `/` (web-root.ts). The table sits in its own file because index.ts, which registers the roots, is
 * also where the BlobStores are made; index.ts's header says what each handler checks beyond the guard.
 */
import { type RouteEntry, type RouteTable, route } from '../http/route-table'
import { STORAGE_ROOTS } from './paths'

/** No If-Match (a file has no revision); replays are exactly-once (idempotent.ts), room is held first. */
const FILE_WRITE = 'Idempotency-Key (idempotent.ts), the quota (quota-holds.ts)'

export const STORAGE_ROUTES: RouteTable = [
  ...STORAGE_ROOTS.flatMap((root) =>
    [`/api/${root}`, `/api/${root}/*`].flatMap((path): RouteEntry[] => [
      { method: 'GET', path, access: 'computed', permission: `${root}/{path}:r`, writes: '-' },
      {
        method: 'POST',
        path,
        access: 'computed',
        permission: `${root}/{path}:c (u to replace)`,
        writes: FILE_WRITE,
      },
      { method: 'PATCH', path, access: 'computed', permission: `${root}/{path}:u`, writes: FILE_WRITE },
      { method: 'DELETE', path, access: 'computed', permission: `${root}/{path}:d`, writes: FILE_WRITE },
    ]),
  ),
  route('POST', '/api/share', 'session', '{root}/{path}:r of the file'),
  route('GET', '/api/share/:token', 'public', '- (the signed token)'),
  route('GET', '/api/share/:token/file', 'public', '- (the signed token)'),
  route('POST', '/api/uploads', 'session', '{root}/{path}:c (u to replace)', FILE_WRITE),
  route('HEAD', '/api/uploads/:id', 'session', "the upload's creator"),
  route(
    'PATCH',
    '/api/uploads/:id',
    'session',
    'the creator; the last judged again (tus-finish.ts)',
    FILE_WRITE,
  ),
  route('DELETE', '/api/uploads/:id', 'session', "the upload's creator"),
  // The Web Server root: outside /api, so the guard does not judge it; sandboxed (security-headers.ts).
  route('GET', '/', 'default', '- (public site)'),
  route('GET', '/*', 'default', '- (public site)'),
]
