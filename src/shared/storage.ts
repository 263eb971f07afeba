/**
 * What the console and the server agree on about Storage and the Web Server's files (SPEC §3 Storage
 * entry, §7, §9): the two roots, an entry as the API answers it, and the file-name stamp.
 */

import { STORAGE_NAME_MAX_BYTES } from './constants'
import { STORAGE_TEXT } from './texts'

/** The two roots, also their permission keys and the collections their entries sync in. */
export type StorageRoot = 'storage' | 'static'
export const STORAGE_ROOTS: readonly StorageRoot[] = ['storage', 'static']

export type EntryType = 'file' | 'directory'

/** One file or folder as the API answers it (SPEC §3 Storage entry, plus what a file browser shows). */
export interface StorageEntry {
  /** Relative to the root, names separated by `/` ('' is the root itself). */
  path: string
  name: string
  type: EntryType
  /** Bytes; 0 for a folder. */
  size: number
  /** ISO 8601. */
  modified: string
  description?: string
  contentType?: string
  children?: StorageEntry[]
}

/**
 * The body of an entry's document in the `storage`/`static` collection (id = path), which the sync
 * engine mirrors: what the console lists offline.
 */
export interface StorageEntryDoc {
  path: string
  name: string
  /** The parent folder's path ('' at the root). */
  parent: string
  type: EntryType
  size: number
  modified: string
  description?: string
}

/** A name's length as filesystems count it: UTF-8 bytes. */
export const nameBytes = (name: string): number => new TextEncoder().encode(name).length

/**
 * The one rule on a name's length (STORAGE_NAME_MAX_BYTES), judged by the server for every path and by
 * the console before it sends or queues one: the refusal's message, or null.
 */
export function nameLengthProblem(name: string): string | null {
  const bytes = nameBytes(name)
  return bytes > STORAGE_NAME_MAX_BYTES ? STORAGE_TEXT.nameTooLong(bytes) : null
}

const TIMESTAMP_TOKEN = /\{\{TIMESTAMP\}\}/g
const two = (n: number) => String(n).padStart(2, '0')

/** SPEC §9: `{{TIMESTAMP}}` in a file name becomes a year-month-day_hour-minute stamp (local time). */
export function stampFileName(name: string, now: Date = new Date()): string {
  const stamp = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}_${two(now.getHours())}-${two(now.getMinutes())}`
  return name.replace(TIMESTAMP_TOKEN, stamp)
}
