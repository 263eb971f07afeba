/**
 * The file browser's model, free of React so it is unit-tested: the mirrored entry documents of one root
 * (collection `storage`/`static`, id = path, body = StorageEntryDoc) merged with the offline queue's
 * pending work — waiting uploads and folders appear as "ghost" rows of the folder they target, entries
 * with a queued delete or move are hidden — then one folder's rows, searched and sorted, and the tree.
 */
import type { EntryType, StorageEntryDoc, StorageRoot } from '../../shared/storage'
import { stampFileName } from '../../shared/storage'

export type PendingStatus = 'waiting' | 'running' | 'failed'

/** One row of a listing: a mirrored entry, or a ghost of queued work (`pending` set). */
export interface Entry extends StorageEntryDoc {
  /** Unique key: the path, or `queue:{id}` for a ghost (an upload may replace an existing file). */
  key: string
  contentType?: string
  pending?: { id: string; status: PendingStatus; sent: number; total: number; error?: string; kind: string }
}

/** What the browser needs of a queue item (C3 QueueItem), so tests need no queue. */
export interface PendingItem {
  id: string
  root: StorageRoot
  op:
    | { kind: 'mkdir'; folder: string; name: string }
    | { kind: 'move'; path: string; to: string }
    | { kind: 'copy'; from: string; to: string }
    | { kind: 'delete'; path: string }
    | { kind: 'describe'; path: string; description: string | null }
    | { kind: 'upload'; folder: string; name: string; size: number; type: string }
  status: string
  sent: number
  total: number
  error?: string
  created: number
}

export type SortKey = 'name' | 'size' | 'modified'
export interface SortOrder {
  by: SortKey
  reverse: boolean
}

/** 'a' + 'b' → 'a/b'; either may be '' (the root, or "here"). */
export const joinPath = (folder: string, name: string): string =>
  folder && name ? `${folder}/${name}` : folder || name
export const parentOf = (path: string): string => {
  const i = path.lastIndexOf('/')
  return i < 0 ? '' : path.slice(0, i)
}
export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
/** `a` is `b` or inside it. */
export const isWithin = (path: string, folder: string): boolean =>
  folder === '' || path === folder || path.startsWith(`${folder}/`)

/** A mirrored document (SyncDoc with the StorageEntryDoc body) as an entry; null when malformed. */
export function entryOfDoc(doc: Record<string, unknown>): Entry | null {
  const d = doc as Partial<StorageEntryDoc> & { _id?: string; contentType?: unknown }
  const path = typeof d.path === 'string' ? d.path : d._id
  if (typeof path !== 'string' || !path) return null
  return {
    key: path,
    path,
    name: typeof d.name === 'string' ? d.name : baseName(path),
    parent: typeof d.parent === 'string' ? d.parent : parentOf(path),
    type: d.type === 'directory' ? 'directory' : 'file',
    size: typeof d.size === 'number' ? d.size : 0,
    modified: typeof d.modified === 'string' ? d.modified : '',
    description: typeof d.description === 'string' ? d.description : undefined,
    contentType: typeof d.contentType === 'string' ? d.contentType : undefined,
  }
}

const ACTIVE = new Set(['waiting', 'running', 'failed'])

/**
 * The mirror with the queue laid over it: entries under a queued delete (or the source of a queued
 * move) are hidden, queued folders, uploads, copies and move targets are added as ghosts. A ghost whose
 * path the mirror already has (the server answered, the sync feed arrived first) is not doubled.
 */
export function overlay(
  entries: readonly Entry[],
  queue: readonly PendingItem[],
  root: StorageRoot,
): Entry[] {
  const active = queue.filter((q) => q.root === root && ACTIVE.has(q.status))
  const hidden: string[] = []
  const ghosts: Entry[] = []
  const now = new Date().toISOString()
  for (const q of active) {
    const op = q.op
    const pending = {
      id: q.id,
      status: q.status as PendingStatus,
      sent: q.sent,
      total: q.total,
      error: q.error,
      kind: op.kind,
    }
    const ghost = (path: string, type: EntryType, size = 0): Entry => ({
      key: `queue:${q.id}`,
      path,
      name: baseName(path),
      parent: parentOf(path),
      type,
      size,
      modified: new Date(q.created || Date.now()).toISOString() || now,
      pending,
    })
    if (op.kind === 'delete') hidden.push(op.path)
    else if (op.kind === 'mkdir') ghosts.push(ghost(joinPath(op.folder, op.name), 'directory'))
    else if (op.kind === 'upload')
      ghosts.push(ghost(joinPath(op.folder, stampFileName(op.name, new Date(q.created))), 'file', op.size))
    else if (op.kind === 'move') {
      const source = entries.find((e) => e.path === op.path)
      hidden.push(op.path)
      if (source) ghosts.push({ ...ghost(op.to, source.type, source.size), description: source.description })
    } else if (op.kind === 'copy') {
      const source = entries.find((e) => e.path === op.from)
      const target = entries.find((e) => e.path === op.to)
      const path = target?.type === 'directory' || op.to === '' ? joinPath(op.to, baseName(op.from)) : op.to
      if (source) ghosts.push(ghost(path, source.type, source.size))
    }
  }
  const shown = entries.filter((e) => !hidden.some((h) => isWithin(e.path, h)))
  const known = new Set(shown.map((e) => e.path))
  // A queued folder's ghost is enough once; an upload replacing a file shows its ghost beside it.
  const extra = ghosts.filter((g) => g.type === 'file' || !known.has(g.path))
  return [...shown, ...extra]
}

/**
 * One collator for every comparison: `localeCompare(…, options)` builds one per call, which made
 * sorting a folder of 10,000 files take a second; `compare` of a kept collator takes tens of ms.
 */
const nameOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** Folders first, then by the chosen key (name as a tie-break), reversed on request. */
export function sortEntries(entries: readonly Entry[], order: SortOrder): Entry[] {
  const byName = (a: Entry, b: Entry) =>
    nameOrder.compare(a.name, b.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  const key = (a: Entry, b: Entry): number => {
    if (order.by === 'size') return a.size - b.size || byName(a, b)
    if (order.by === 'modified') return a.modified.localeCompare(b.modified) || byName(a, b)
    return byName(a, b)
  }
  const sign = order.reverse ? -1 : 1
  return [...entries].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'directory' ? -1 : 1
    return sign * key(a, b)
  })
}

/** The rows of one folder matching the search (name or description, case-insensitive), sorted. */
export function folderRows(
  entries: readonly Entry[],
  folder: string,
  query: string,
  order: SortOrder,
): Entry[] {
  const q = query.trim().toLowerCase()
  const rows = entries.filter(
    (e) =>
      e.parent === folder &&
      (!q || e.name.toLowerCase().includes(q) || (e.description ?? '').toLowerCase().includes(q)),
  )
  return sortEntries(rows, order)
}

/** Folder path → its sub-folders, by name; '' is the root. */
export function folderTree(entries: readonly Entry[]): Map<string, Entry[]> {
  const tree = new Map<string, Entry[]>()
  for (const e of entries) {
    if (e.type !== 'directory') continue
    const list = tree.get(e.parent) ?? []
    list.push(e)
    tree.set(e.parent, list)
  }
  for (const list of tree.values()) list.sort((a, b) => a.name.localeCompare(b.name))
  return tree
}

/** Every folder path, for the move/copy picker ('' first). */
export function allFolders(entries: readonly Entry[]): string[] {
  const out = new Set([''])
  for (const e of entries) if (e.type === 'directory' && !e.pending) out.add(e.path)
  return [...out].sort((a, b) => a.localeCompare(b))
}

/** The folders a selection may move into: not into itself or below, not where they already are. */
export function moveTargets(folders: readonly string[], selection: readonly Entry[]): string[] {
  return folders.filter(
    (f) =>
      !selection.some((s) => (s.type === 'directory' && isWithin(f, s.path)) || false) &&
      !selection.every((s) => s.parent === f),
  )
}

/** What kind of preview a file gets, by content type and then extension. */
export type PreviewKind = 'image' | 'svg' | 'pdf' | 'audio' | 'video' | 'text' | 'none'

const TEXT_EXT = new Set(
  'txt md markdown csv tsv json jsonl log xml yml yaml toml ini conf cfg env html htm css scss less js mjs cjs jsx ts tsx py rb go rs java kt c h cpp hpp cs php sh bash zsh sql graphql vue svelte lua pl r swift dart ex exs erl hs clj scala gradle properties gitignore dockerfile makefile'.split(
    ' ',
  ),
)
const IMAGE_EXT = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico'])
const AUDIO_EXT = new Set(['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac', 'opus'])
const VIDEO_EXT = new Set(['mp4', 'webm', 'ogv', 'mov', 'm4v'])

export function previewKind(name: string, contentType = ''): PreviewKind {
  const dot = name.lastIndexOf('.')
  const ext = dot < 0 ? name.toLowerCase() : name.slice(dot + 1).toLowerCase()
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (ext === 'svg' || type === 'image/svg+xml') return 'svg'
  if (ext === 'pdf' || type === 'application/pdf') return 'pdf'
  if (IMAGE_EXT.has(ext) || (type.startsWith('image/') && type !== 'image/svg+xml')) return 'image'
  if (AUDIO_EXT.has(ext) || type.startsWith('audio/')) return 'audio'
  if (VIDEO_EXT.has(ext) || type.startsWith('video/')) return 'video'
  if (TEXT_EXT.has(ext) || type.startsWith('text/') || type === 'application/json') return 'text'
  return 'none'
}

/** A thumbnail is worth fetching for raster images and SVG (shown through <img>, never as a page). */
export const hasThumbnail = (e: Entry): boolean => {
  const k = previewKind(e.name, e.contentType)
  return e.type === 'file' && !e.pending && (k === 'image' || k === 'svg')
}

/** URL of a folder or file of a root inside the console ('/storage/a/b'), each name encoded. */
export function browserHref(root: StorageRoot, path: string): string {
  return path ? `/${root}/${path.split('/').map(encodeURIComponent).join('/')}` : `/${root}`
}
