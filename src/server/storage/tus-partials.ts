/**
 * Where unfinished resumable uploads wait: `{MOMENTUM_DATA}/uploads`, outside both storage roots (so
 * never listed, never served at `/`, never counted as a root's files), in @tus/file-store's layout:
 * `{id}` holds the bytes received so far, `{id}.json` the upload (size, metadata with its owner).
 * Once the file is named in its root the bytes go and `{id}.done` keeps the entry it became, so a
 * client that lost the last answer learns it is finished instead of sending the file again.
 *
 * Expiry (sweep): an unfinished upload that received nothing for TUS_EXPIRY_MS goes with its bytes,
 * counted from the last byte rather than from creation, so a slow upload that keeps going never
 * expires; a finished one's record goes after TUS_FINISHED_KEEP_MS. @tus/file-store's own expiry
 * counts from creation and is left off. Their room in a quota is held elsewhere (quota-holds.ts) and
 * lapses far sooner, after TUS_HOLD_IDLE_MS without a PATCH.
 */
import fs from 'node:fs'
import path from 'node:path'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileStore } from '@tus/file-store'
import { TUS_EXPIRY_MS, TUS_FINISHED_KEEP_MS } from '../../shared/constants'
import type { StorageEntry, StorageRoot } from '../../shared/storage'
import { diskFull, isNoSpace } from './quota'

/** What the server keeps in an upload's metadata: the client's fields (tus-create.ts) and its owner. */
export interface UploadMeta {
  root: StorageRoot
  folder: string
  name: string
  type: string
  key: string
  user: string
}

/** `{id}.json` as @tus/file-store writes it. */
export interface UploadInfo {
  id: string
  size: number
  metadata: UploadMeta
  creation_date?: string
}

/**
 * @tus/file-store, except that a full disk is 507: its own write turns every error into a 500 (tus.ts
 * also maps the raw error, which may reach the handler first).
 */
class PartialFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let received = 0
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length
        done(null, chunk)
      },
    })
    const file = fs.createWriteStream(path.join(this.directory, id), { flags: 'r+', start: offset })
    try {
      await pipeline(readable, count, file)
    } catch (error) {
      throw isNoSpace(error) ? diskFull() : error
    }
    return offset + received
  }
}
/*
 * tusPartials creates the folder synchronously. The base class's constructor also starts an asynchronous
 * mkdir that throws from its callback, an uncaught exception, when the data dir is gone by then (a
 * server closed at once). The method is private in the typings, so it is replaced on the prototype.
 */
;(PartialFileStore.prototype as unknown as { checkOrCreateDirectory(): void }).checkOrCreateDirectory =
  () => {}

export type Partials = ReturnType<typeof tusPartials>

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.promises.readFile(file, 'utf8')) as T
  } catch {
    return null
  }
}

async function mtimeOf(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).mtimeMs
  } catch {
    return 0
  }
}

export function tusPartials(dataDir: string) {
  const dir = path.join(dataDir, 'uploads')
  fs.mkdirSync(dir, { recursive: true })
  const store = new PartialFileStore({ directory: dir })
  const file = (id: string, suffix = '') => path.join(dir, `${id}${suffix}`)

  const rm = (id: string, ...suffixes: string[]) =>
    Promise.all(suffixes.map((s) => fs.promises.rm(file(id, s), { force: true })))

  return {
    dir,
    store,
    /** The bytes received so far. */
    dataPath: (id: string) => file(id),

    info: (id: string) => readJson<UploadInfo>(file(id, '.json')),

    /** How many bytes arrived so far; -1 when the partial file is gone. */
    receivedBytes: (id: string): Promise<number> =>
      fs.promises.stat(file(id)).then(
        (s) => s.size,
        () => -1,
      ),

    /** The entry a finished upload became, or null while it is unfinished. */
    async finished(id: string): Promise<StorageEntry | null> {
      return (await readJson<{ entry: StorageEntry }>(file(id, '.done')))?.entry ?? null
    },

    /** After the file is named: keep the entry, drop the bytes (the root has them now). */
    async markFinished(id: string, entry: StorageEntry): Promise<void> {
      await fs.promises.writeFile(file(id, '.done'), JSON.stringify({ entry }))
      await rm(id, '')
    },

    remove: (id: string) => rm(id, '', '.json', '.done').then(() => undefined),

    /** Deletes what expired (module comment); answers how many uploads went. */
    async sweep(now = Date.now()): Promise<number> {
      const names = new Set(await fs.promises.readdir(dir))
      let gone = 0
      for (const name of names) {
        if (name.endsWith('.done')) continue
        const id = name.endsWith('.json') ? name.slice(0, -5) : name
        if (name === id && names.has(`${id}.json`)) continue // judged with its .json
        const finished = names.has(`${id}.done`)
        const last = finished
          ? (await mtimeOf(file(id, '.done'))) + TUS_FINISHED_KEEP_MS
          : Math.max(await mtimeOf(file(id)), await mtimeOf(file(id, '.json'))) + TUS_EXPIRY_MS
        if (last < now) {
          await rm(id, '', '.json', '.done')
          gone++
        }
      }
      return gone
    },
  }
}
