/**
 * Every write of the file browser, through the offline queue (C3: runStorageOp / enqueueUploads), with
 * the toasts that tell the truth about where it went: done on the server, or kept on this device and
 * "will be sent when you are back online". Deletes ask the SPEC §8 confirmation and report with its
 * toasts. A batch (move, copy or delete of a selection) runs one op after the other, in order.
 */

import { type StorageRoot, stampFileName } from '../../../shared/storage'
import { STORAGE_BROWSER_TEXT, savedToast } from '../../../shared/texts'
import { createShareLink } from '../../api/share'
import { confirmDelete, notifyDeleted } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { baseName, type Entry, joinPath } from '../../storage/entries'
import {
  enqueueUploads,
  namesProblem,
  runStorageOp,
  type StorageOp,
  type UploadInput,
} from '../../storage/queue'

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

interface BatchResult {
  done: number
  queued: number
  failed: number
}

/** Runs ops in order; the first error is shown, the others counted. */
async function runAll(ops: readonly StorageOp[]): Promise<BatchResult> {
  const result: BatchResult = { done: 0, queued: 0, failed: 0 }
  let firstError: unknown = null
  for (const op of ops) {
    try {
      const answer = await runStorageOp(op)
      if (answer.queued) result.queued++
      else result.done++
    } catch (e) {
      result.failed++
      firstError ??= e
    }
  }
  if (firstError) toast.error(messageOf(firstError))
  return result
}

/** One op: "done" toast, "queued" toast, or the error; true unless it failed. */
async function runOne(op: StorageOp, doneText: string, what: string): Promise<boolean> {
  const r = await runAll([op])
  if (r.done && doneText) toast.success(doneText)
  if (r.queued) toast.info(STORAGE_BROWSER_TEXT.queued(what))
  return r.failed === 0
}

export function createFolder(root: StorageRoot, folder: string, name: string): Promise<boolean> {
  return runOne(
    { kind: 'mkdir', root, folder, name },
    STORAGE_BROWSER_TEXT.folderCreated(name),
    `Folder ${name}`,
  )
}

export function rename(root: StorageRoot, entry: Entry, name: string): Promise<boolean> {
  return runOne(
    { kind: 'move', root, path: entry.path, to: joinPath(entry.parent, name) },
    STORAGE_BROWSER_TEXT.renamed(name),
    `Renaming ${entry.name}`,
  )
}

/** SPEC §8 wording when the server has it: "Description was saved successfully". */
export async function describe(root: StorageRoot, entry: Entry, description: string): Promise<boolean> {
  const value = description.trim() ? description : null
  const r = await runAll([{ kind: 'describe', root, path: entry.path, description: value }])
  if (r.done) toast.success(savedToast('Description'))
  if (r.queued) toast.info(STORAGE_BROWSER_TEXT.queued('The description'))
  return r.failed === 0
}

const folderLabel = (root: StorageRoot, folder: string) => folder || STORAGE_BROWSER_TEXT.rootName[root]

/** Moves entries into `folder` (each keeps its name; a clash is the server's 409). */
export async function moveInto(root: StorageRoot, entries: readonly Entry[], folder: string): Promise<void> {
  const todo = entries.filter((e) => e.parent !== folder && e.path !== folder)
  if (!todo.length) return
  const r = await runAll(
    todo.map((e) => ({ kind: 'move', root, path: e.path, to: joinPath(folder, e.name) })),
  )
  if (r.done) toast.success(STORAGE_BROWSER_TEXT.moved(r.done, folderLabel(root, folder)))
  if (r.queued)
    toast.info(STORAGE_BROWSER_TEXT.queued(`Moving ${r.queued} ${r.queued === 1 ? 'item' : 'items'}`))
}

/** Copies entries into `folder`; the server names a clash `name (COPY).ext`. */
export async function copyInto(root: StorageRoot, entries: readonly Entry[], folder: string): Promise<void> {
  if (!entries.length) return
  const r = await runAll(entries.map((e) => ({ kind: 'copy', root, from: e.path, to: folder })))
  if (r.done) toast.success(STORAGE_BROWSER_TEXT.copied(r.done, folderLabel(root, folder)))
  if (r.queued)
    toast.info(STORAGE_BROWSER_TEXT.queued(`Copying ${r.queued} ${r.queued === 1 ? 'item' : 'items'}`))
}

/** SPEC §8: "Do you really want to delete N …?", then "Deleted N item(s)" or "Deleted X/Y items". */
export async function deleteEntries(root: StorageRoot, entries: readonly Entry[]): Promise<boolean> {
  if (!entries.length) return false
  const noun =
    entries.length === 1
      ? entries[0]!.type === 'directory'
        ? 'folder'
        : 'file'
      : entries.every((e) => e.type === 'file')
        ? 'files'
        : 'items'
  if (!(await confirmDelete(entries.length, noun))) return false
  const r = await runAll(entries.map((e) => ({ kind: 'delete', root, path: e.path })))
  // The same toast as every other delete (SPEC §8's words first, then "on this device" when they did
  // not reach the server). Storage's own "… will be sent when you are back online" said the same
  // thing in other words, so deletes no longer use it. Reachability here is not the screen's
  // useServerReachable() but each op's own answer: the files queue tried the server itself (or knew
  // the browser was offline), so `queued` is exact where the toolbar's status can lag behind it. A
  // queued delete is neutral; its row in the files queue shows what became of it.
  if (r.queued === 0) notifyDeleted(r.done, entries.length, true)
  else notifyDeleted(r.done + r.queued, entries.length, false, [])
  return true
}

/** A file picked or dropped, with the folder it goes to relative to the current one ('' = here). */
export interface Picked {
  file: File
  dir: string
}

/**
 * Uploads files into `folder`, sub-folders of a folder upload first (the upload endpoint wants the
 * target folder to exist; `known` are the folders the mirror already has). Stored in IndexedDB before
 * this resolves, so a reload or a cut link loses nothing; the queue sends them when it can.
 * `reachable` is the screen's useServerReachable(), not navigator.onLine (which stays true with the
 * server cut off behind a working network): the uploads are only queued here and not awaited, so
 * unlike deleteEntries there is no answer of their own; a sub-folder create the queue kept counts too.
 */
export async function upload(
  root: StorageRoot,
  folder: string,
  picked: readonly Picked[],
  known: ReadonlySet<string>,
  reachable: boolean,
): Promise<void> {
  picked = withoutRefusedNames(folder, picked)
  if (!picked.length) return
  const dirs = new Set<string>()
  for (const p of picked) {
    const parts = p.dir.split('/').filter(Boolean)
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('/'))
  }
  const newDirs = [...dirs]
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .map((d) => joinPath(folder, d))
    .filter((d) => !known.has(d))
  let sending = reachable
  for (const d of newDirs) {
    const parent = d.slice(0, Math.max(0, d.lastIndexOf('/')))
    try {
      const r = await runStorageOp({ kind: 'mkdir', root, folder: parent, name: baseName(d) })
      if (r.queued) sending = false
    } catch (e) {
      // A folder someone made meanwhile is fine: the files go into it.
      if (!/already exists/i.test(messageOf(e))) {
        toast.error(messageOf(e))
        return
      }
    }
  }
  const items: UploadInput[] = picked.map((p) => ({
    file: p.file,
    name: p.file.name,
    folder: joinPath(folder, p.dir),
  }))
  try {
    await enqueueUploads(root, items)
  } catch (e) {
    toast.error(messageOf(e))
    return
  }
  // Started, not done: each row shows its progress and its outcome.
  if (sending) toast.info(STORAGE_BROWSER_TEXT.uploading(items.length))
  else toast.warning(STORAGE_BROWSER_TEXT.uploadsQueued(items.length))
}

/** A name in a toast: the start of a 300-character one says which file it is. */
const shortName = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name)

/**
 * The picked files whose names (and sub-folders') the server will take; the others are left out
 * before anything is made or queued, and named in an error toast with the shared rule's reason.
 */
function withoutRefusedNames(folder: string, picked: readonly Picked[]): Picked[] {
  const now = new Date()
  const refused: { name: string; reason: string }[] = []
  const kept = picked.filter((p) => {
    const name = stampFileName(p.file.name, now)
    const reason = namesProblem({ kind: 'upload', folder: joinPath(folder, p.dir), name, size: 0, type: '' })
    if (reason) refused.push({ name: p.file.name, reason })
    return !reason
  })
  if (refused.length) {
    const [first] = refused
    toast.error(STORAGE_BROWSER_TEXT.notUploaded(refused.length, shortName(first!.name), first!.reason))
  }
  return kept
}

/** Files of an <input type=file> (webkitdirectory gives each its relative path). */
export function pickedOfInput(files: FileList | null): Picked[] {
  return [...(files ?? [])].map((file) => {
    const rel = (file as File & { webkitRelativePath?: string }).webkitRelativePath ?? ''
    return { file, dir: rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '' }
  })
}

/** Files of a drop, folders walked with the File System entries API so relative paths are kept. */
export async function pickedOfDrop(data: DataTransfer): Promise<Picked[]> {
  const roots = [...data.items].filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null)
  if (!roots.length || roots.some((r) => r === null))
    return [...data.files].map((file) => ({ file, dir: '' }))
  const out: Picked[] = []
  const walk = async (entry: FileSystemEntry, dir: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej))
      out.push({ file, dir })
      return
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader()
    const sub = joinPath(dir, entry.name)
    // readEntries answers in pages (100 in Chromium) until an empty one.
    for (;;) {
      const page = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej))
      if (!page.length) break
      for (const child of page) await walk(child, sub)
    }
  }
  for (const r of roots) await walk(r!, '')
  return out
}

/** A share link that works for `seconds`, copied to the clipboard (or shown, without clipboard access). */
export async function copyShareLink(root: StorageRoot, entry: Entry, seconds: number): Promise<void> {
  try {
    const { url, expires } = await createShareLink(root, entry.path, seconds)
    const until = new Date(expires).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    try {
      await navigator.clipboard.writeText(url)
      toast.success(STORAGE_BROWSER_TEXT.linkCopiedUntil(until))
    } catch {
      // No clipboard permission: the link is still useful, shown to copy by hand.
      toast.success(url, 'Link')
    }
  } catch (err) {
    toast.error(err instanceof Error ? err.message : String(err))
  }
}
