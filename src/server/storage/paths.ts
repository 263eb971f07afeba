/**
 * Storage paths: the one place a client's path becomes a path the blob store may touch, and the one
 * place its permission path is made, so the guard and every handler judge the same string.
 *
 * A path is relative to its root ('' is the root), its names separated by single `/`. Anything a
 * filesystem or a URL could read two ways is refused (400), never repaired: `.` and `..`, empty names
 * (`a//b`, a leading `/`, which would be absolute), NUL and other control characters, `\` (a separator
 * elsewhere), and the blob store's own staging folder. A trailing `/` is dropped (a folder's URL).
 * The router has already decoded the URL, so `%2e%2e` arrives as `..` and `%2F` as `/`, and is refused
 * like them.
 * A name longer than STORAGE_NAME_MAX_BYTES is refused here too (the shared rule the console checks
 * first), so no route hands the filesystem a name it would answer ENAMETOOLONG to: a 500 is retried
 * by every queue as a passing fault, a 400 is failed with its reason.
 */
import type { FastifyRequest } from 'fastify'
import { STORAGE_PATH_MAX } from '../../shared/constants'
import { methodLetter } from '../../shared/permissions'
/** The two roots: Storage (`{MOMENTUM_DATA}/storage`) and the Web Server (`config.staticDir`). */
import { nameLengthProblem, type StorageRoot } from '../../shared/storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'

export { STORAGE_ROOTS, type StorageRoot } from '../../shared/storage'

/** Where the disk store stages uploads inside each root; never a valid name, never listed. */
export const STAGING_NAME = '.momentum-staging'

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const BAD_CHARS = /[\u0000-\u001f\u007f\\]/

/** A client's path (URL wildcard or body field) as a storage path; 400 with the rule otherwise. */
export function parsePath(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest(STORAGE_TEXT.pathInvalid)
  const text = raw.endsWith('/') ? raw.slice(0, -1) : raw
  if (text === '') return ''
  if (text.length > STORAGE_PATH_MAX || BAD_CHARS.test(text)) throw badRequest(STORAGE_TEXT.pathInvalid)
  const names = text.split('/')
  for (const name of names) {
    if (name === '' || name === '.' || name === '..' || name === STAGING_NAME || name.trim() === '')
      throw badRequest(STORAGE_TEXT.pathInvalid)
    const tooLong = nameLengthProblem(name)
    if (tooLong) throw badRequest(tooLong)
  }
  return names.join('/')
}

/** A single name (an uploaded file's name, a new folder's): a path of exactly one part. */
export function parseName(raw: unknown): string {
  const name = parsePath(raw)
  if (name === '' || name.includes('/')) throw badRequest(STORAGE_TEXT.pathInvalid)
  return name
}

export const joinPath = (folder: string, name: string): string => (folder ? `${folder}/${name}` : name)
export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
export const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')))

/** Whether `path` is `folder` itself or lies below it. */
export const isWithin = (path: string, folder: string): boolean =>
  folder === '' || path === folder || path.startsWith(`${folder}/`)

/** The permission path of an entry: `storage/reports/2026`, or the root's key alone (`storage`). */
export const permissionPath = (root: StorageRoot, path: string): string => (path ? `${root}/${path}` : root)

/** The path in this request's URL (the router's decoded wildcard). */
export function requestPath(req: FastifyRequest): string {
  return parsePath((req.params as Record<string, unknown> | undefined)?.['*'] ?? '')
}

/**
 * The guard's rule for a storage route: `{root}/{path}:{letter of the method}`, made from the router's
 * decoded wildcard after parsePath, so `a//private`, `private/` and `private#x` (the router stops at
 * `#`) are judged as the entry they reach, and a path that reaches none is 400 before any handler runs.
 */
export function storageAccess(root: StorageRoot) {
  return (req: FastifyRequest): string =>
    `${permissionPath(root, requestPath(req))}:${methodLetter(req.method)}`
}

/** ` (COPY)` before the extension: `a.txt` → `a (COPY).txt`, `notes` → `notes (COPY)` (SPEC §9). */
export function withSuffix(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? `${name.slice(0, dot)}${suffix}${name.slice(dot)}` : `${name}${suffix}`
}
