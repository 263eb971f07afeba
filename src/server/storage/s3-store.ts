/**
 * The BlobStore on an S3-compatible bucket (AWS S3, MinIO, s3rver …), so several server instances share
 * their files without a shared volume (docs/operating/storage.md "S3-compatible storage"). It answers exactly as
 * the disk store does (tests/server/blob-store-conformance-cases.ts holds both to the same cases).
 *
 * Layout: a root is the prefix `{MOMENTUM_S3_PREFIX}{root}/`; a file `a/b.txt` is the object
 * `{base}a/b.txt`; a folder is a zero-byte marker object `{base}a/` (so an empty folder exists, and a
 * folder has a modification time). A folder is also implied by keys below it that another tool put
 * there without a marker: it lists and opens like any folder (modified 1970), and disappears when its
 * last object goes, as in the S3 console. Uploads are staged under `{base}.momentum-staging/{id}`, a
 * name paths.ts never lets a client reach and listings skip, and `commit` copies them to their name:
 * S3 has no rename, and a copy replaces the target object atomically, so a reader sees the old file or
 * the new one, never a half. Copy and move of a folder copy each object of its subtree (a move then
 * deletes the originals): not atomic, as no S3 operation on many keys is.
 */
import crypto from 'node:crypto'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError, badRequest, conflict } from '../errors'
import type { BlobStat, BlobStore, ByteRange, HashedStaged } from './blob-store'
import { baseName, joinPath, parentOf, parseName, STAGING_NAME } from './paths'
import { inParallel, type S3Object, s3Bucket } from './s3-client'

const notFound = () => new ApiError('not_found', STORAGE_TEXT.notFound)
const EPOCH = new Date(0)
/** Multipart part size: lib-storage buffers one part per request in flight (queueSize). */
const PART_BYTES = 8 * 1024 * 1024
const QUEUE_SIZE = 2

/** A name another tool may have put in a key (`a//b`, `..`, control characters) that no path can reach. */
function usable(name: string): boolean {
  if (name === STAGING_NAME) return false
  try {
    parseName(name)
    return true
  } catch {
    return false
  }
}

export function s3BlobStore(client: S3Client, bucketName: string, base: string): BlobStore {
  const bucket = s3Bucket(client, bucketName)
  const keyOf = (rel: string) => base + rel
  /** The prefix of everything inside a folder, and its marker's key. */
  const folderKey = (rel: string) => (rel ? `${base}${rel}/` : base)
  const stagingKey = (id: string) => `${base}${STAGING_NAME}/${id}`

  const fileStat = (rel: string, o: S3Object): BlobStat => ({
    path: rel,
    name: baseName(rel),
    type: 'file',
    size: o.size,
    modified: o.modified,
  })
  const folderStat = (rel: string, modified: Date): BlobStat => ({
    path: rel,
    name: rel ? baseName(rel) : '',
    type: 'directory',
    size: 0,
    modified,
  })

  async function statOf(rel: string): Promise<BlobStat | null> {
    if (!rel) return folderStat('', (await bucket.head(base))?.modified ?? EPOCH)
    const [file, marker] = await Promise.all([bucket.head(keyOf(rel)), bucket.head(folderKey(rel))])
    if (file) return fileStat(rel, file)
    if (marker) return folderStat(rel, marker.modified)
    const below = await bucket.list(folderKey(rel), { max: 1 })
    return below.objects.length > 0 ? folderStat(rel, EPOCH) : null
  }

  async function existing(rel: string): Promise<BlobStat> {
    const found = await statOf(rel)
    if (!found) throw notFound()
    return found
  }

  /** The parent of `rel` must be a folder (404 missing, 400 a file). */
  async function parentFolder(rel: string): Promise<void> {
    const folder = await statOf(parentOf(rel))
    if (!folder) throw notFound()
    if (folder.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
  }

  async function absent(rel: string): Promise<void> {
    if (await statOf(rel)) throw conflict(STORAGE_TEXT.exists)
    await parentFolder(rel)
  }

  async function putMarker(rel: string): Promise<void> {
    await client.send(
      new PutObjectCommand({ Bucket: bucketName, Key: folderKey(rel), Body: '', ContentLength: 0 }),
    )
  }

  /** Every object of a file or a folder's subtree (its marker included), as keys. */
  async function keysOf(stat: BlobStat): Promise<string[]> {
    if (stat.type === 'file') return [keyOf(stat.path)]
    return (await bucket.list(folderKey(stat.path))).objects.map((o) => o.key)
  }

  /** Copies a file, or a folder's objects to the same places under `to`; the folder gets a marker. */
  async function copyTree(stat: BlobStat, to: string): Promise<string[]> {
    if (stat.type === 'file') {
      await bucket.copy(keyOf(stat.path), keyOf(to))
      return [keyOf(stat.path)]
    }
    const from = folderKey(stat.path)
    const keys = await keysOf(stat)
    await putMarker(to)
    const target = folderKey(to)
    await inParallel(
      keys.filter((k) => k !== from),
      (key) => bucket.copy(key, target + key.slice(from.length)),
    )
    return keys
  }

  /** Parents before children, names in code-unit order within a folder: the disk store's order. */
  function ordered(stats: Map<string, BlobStat>, top: string): BlobStat[] {
    const children = new Map<string, string[]>()
    for (const path of stats.keys()) {
      const parent = parentOf(path)
      if (!children.has(parent)) children.set(parent, [])
      children.get(parent)!.push(path)
    }
    const out: BlobStat[] = []
    const walk = (folder: string) => {
      for (const path of (children.get(folder) ?? []).sort()) {
        out.push(stats.get(path)!)
        walk(path)
      }
    }
    walk(top)
    return out
  }

  async function listRecursive(rel: string): Promise<BlobStat[]> {
    const prefix = folderKey(rel)
    const stats = new Map<string, BlobStat>()
    for (const o of (await bucket.list(prefix)).objects) {
      const names = o.key.slice(prefix.length).split('/')
      const isMarker = names[names.length - 1] === ''
      if (isMarker) names.pop()
      if (names.length === 0 || !names.every(usable)) continue
      // Every folder on the way exists (implied when it has no marker of its own).
      for (let i = 1; i < names.length; i++) {
        const folder = joinPath(rel, names.slice(0, i).join('/'))
        if (!stats.has(folder)) stats.set(folder, folderStat(folder, EPOCH))
      }
      const path = joinPath(rel, names.join('/'))
      stats.set(path, isMarker ? folderStat(path, o.modified) : fileStat(path, o))
    }
    return ordered(stats, rel)
  }

  async function listOne(rel: string): Promise<BlobStat[]> {
    const prefix = folderKey(rel)
    const { objects, prefixes } = await bucket.list(prefix, { delimiter: true })
    const stats = new Map<string, BlobStat>()
    for (const o of objects) {
      const name = o.key.slice(prefix.length)
      if (usable(name)) stats.set(joinPath(rel, name), fileStat(joinPath(rel, name), o))
    }
    const folders = prefixes.map((p) => p.slice(prefix.length, -1)).filter(usable)
    await inParallel(folders, async (name) => {
      const path = joinPath(rel, name)
      stats.set(path, folderStat(path, (await bucket.head(folderKey(path)))?.modified ?? EPOCH))
    })
    return ordered(stats, rel)
  }

  return {
    stat: statOf,

    async list(rel, recursive) {
      const found = await existing(rel)
      if (found.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
      return recursive ? listRecursive(rel) : listOne(rel)
    },

    async read(rel, range?: ByteRange) {
      const found = await existing(rel)
      if (found.type !== 'file') throw badRequest(STORAGE_TEXT.isFolder)
      const res = await client.send(
        new GetObjectCommand({
          Bucket: bucketName,
          Key: keyOf(rel),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      )
      return res.Body as Readable
    },

    async stage(source: Readable): Promise<HashedStaged> {
      const id = crypto.randomBytes(12).toString('hex')
      const hash = crypto.createHash('sha256')
      let size = 0
      // Size and hash are taken on the way through, so the bytes are read once, never buffered whole.
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk)
          size += chunk.length
          done(null, chunk)
        },
      })
      const upload = new Upload({
        client,
        params: { Bucket: bucketName, Key: stagingKey(id), Body: counter },
        partSize: PART_BYTES,
        queueSize: QUEUE_SIZE,
      })
      try {
        await Promise.all([
          pipeline(source, counter),
          upload.done().catch((error) => {
            counter.destroy(error)
            throw error
          }),
        ])
      } catch (error) {
        await bucket.remove([stagingKey(id)]).catch(() => {})
        throw error
      }
      return { id, size, sha256: hash.digest('hex') }
    },

    async commit(staged, rel) {
      await parentFolder(rel)
      if ((await statOf(rel))?.type === 'directory') throw conflict(STORAGE_TEXT.exists)
      await bucket.copy(stagingKey(staged.id), keyOf(rel))
      await bucket.remove([stagingKey(staged.id)])
      return existing(rel)
    },

    async discard(staged) {
      await bucket.remove([stagingKey(staged.id)])
    },

    async mkdir(rel) {
      await absent(rel)
      await putMarker(rel)
      return existing(rel)
    },

    async copy(from, to) {
      const source = await existing(from)
      await absent(to)
      await copyTree(source, to)
    },

    async move(from, to) {
      const source = await existing(from)
      await absent(to)
      await bucket.remove(await copyTree(source, to))
    },

    async remove(rel) {
      await bucket.remove(await keysOf(await existing(rel)))
    },
  }
}
