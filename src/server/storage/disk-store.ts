/**
 * The BlobStore on the local disk: Storage under `{MOMENTUM_DATA}/storage`, the Web Server under
 * `config.staticDir`. Each operation resolves its path with `resolve` below, which refuses what the
 * path parser cannot see: a symlink (placed by an operator, or an old one) anywhere on the path. One
 * whose target lies outside the root would leave it; one inside would be judged by the link's path
 * (`storage/public/x:r`) while serving another file (`storage/private/…`), so neither is followed.
 * Listings leave links out and a copy skips them, so a link is never read through nor copied. Uploads are staged in a hidden folder of the same root (so the final rename stays on one
 * filesystem and is atomic) that paths.ts never lets a client name. The filesystem's refusals of a
 * name (ENAMETOOLONG, EILSEQ) come out as 400s, a second fence behind paths.ts's length rule.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { STORAGE_TEXT } from '../../shared/texts'
import { ApiError, badRequest, conflict } from '../errors'
import type { BlobStat, BlobStore, ByteRange, HashedStaged, Staged } from './blob-store'
import { baseName, joinPath, STAGING_NAME } from './paths'

const notFound = () => new ApiError('not_found', STORAGE_TEXT.notFound)

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/**
 * The filesystem's refusals of a name or a path, as the client error they are: what paths.ts cannot
 * judge (a path past the system's PATH_MAX, a filesystem that takes only UTF-8 names) must still be a
 * 400 the queues show, never a 500 they retry as a passing fault.
 */
const NAME_REFUSALS = new Set(['ENAMETOOLONG', 'EILSEQ'])

function asClientError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code && NAME_REFUSALS.has(code) ? badRequest(STORAGE_TEXT.nameRefused) : error
}

/** Every operation of `store` with the filesystem's name refusals turned into 400s. */
function fenced(store: BlobStore): BlobStore {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(store)) {
    out[key] =
      typeof value === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await value(...args)
            } catch (error) {
              throw asClientError(error)
            }
          }
        : value
  }
  return out as unknown as BlobStore
}

export function diskBlobStore(rootDir: string): BlobStore {
  fs.mkdirSync(rootDir, { recursive: true })
  const root = fs.realpathSync(rootDir)
  const staging = path.join(root, STAGING_NAME)

  /**
   * The absolute path of `rel`, after checking that its nearest existing ancestor is what it says: its
   * real path is its own (no symlink on the way; paths.ts already refused `..`), inside the root.
   */
  async function resolve(rel: string): Promise<string> {
    const full = rel ? path.join(root, ...rel.split('/')) : root
    let probe = full
    for (;;) {
      try {
        const real = await fs.promises.realpath(probe)
        if (real !== root && !real.startsWith(root + path.sep)) throw badRequest(STORAGE_TEXT.outsideRoot)
        if (real !== probe) throw badRequest(STORAGE_TEXT.symlinkRefused)
        return full
      } catch (error) {
        if (!isMissing(error) || probe === root) throw error
        probe = path.dirname(probe)
      }
    }
  }

  function toStat(rel: string, stat: fs.Stats): BlobStat {
    return {
      path: rel,
      name: rel ? baseName(rel) : '',
      type: stat.isDirectory() ? 'directory' : 'file',
      size: stat.isDirectory() ? 0 : stat.size,
      modified: stat.mtime,
    }
  }

  async function statOf(rel: string): Promise<BlobStat | null> {
    try {
      return toStat(rel, await fs.promises.stat(await resolve(rel)))
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }

  async function existing(rel: string): Promise<BlobStat> {
    const found = await statOf(rel)
    if (!found) throw notFound()
    return found
  }

  async function absent(rel: string): Promise<string> {
    if (await statOf(rel)) throw conflict(STORAGE_TEXT.exists)
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
    const folder = await statOf(parent)
    if (!folder) throw notFound()
    if (folder.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
    return resolve(rel)
  }

  async function walk(rel: string, recursive: boolean, out: BlobStat[]): Promise<void> {
    const dir = await resolve(rel)
    const names = (await fs.promises.readdir(dir)).sort()
    for (const name of names) {
      const child = joinPath(rel, name)
      if (name === STAGING_NAME) continue
      let stat: fs.Stats
      try {
        // A symlink is left out of listings rather than failing the whole folder.
        stat = await fs.promises.stat(await resolve(child))
      } catch {
        continue
      }
      out.push(toStat(child, stat))
      if (recursive && stat.isDirectory()) await walk(child, true, out)
    }
  }

  return fenced({
    stat: statOf,

    async list(rel, recursive) {
      const found = await existing(rel)
      if (found.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
      const out: BlobStat[] = []
      await walk(rel, recursive, out)
      return out
    },

    async read(rel, range?: ByteRange) {
      const found = await existing(rel)
      if (found.type !== 'file') throw badRequest(STORAGE_TEXT.isFolder)
      return fs.createReadStream(await resolve(rel), range ? { start: range.start, end: range.end } : {})
    },

    async stage(source: Readable): Promise<HashedStaged> {
      await fs.promises.mkdir(staging, { recursive: true })
      const id = crypto.randomBytes(12).toString('hex')
      const hash = crypto.createHash('sha256')
      let size = 0
      source.on('data', (chunk: Buffer) => {
        hash.update(chunk)
        size += chunk.length
      })
      try {
        await pipeline(source, fs.createWriteStream(path.join(staging, id)))
      } catch (error) {
        await fs.promises.rm(path.join(staging, id), { force: true })
        throw error
      }
      return { id, size, sha256: hash.digest('hex') }
    },

    async adopt(localFile: string): Promise<Staged | null> {
      await fs.promises.mkdir(staging, { recursive: true })
      const id = crypto.randomBytes(12).toString('hex')
      // A hard link: no byte is copied, and the source stays whole if the commit is refused.
      try {
        await fs.promises.link(localFile, path.join(staging, id))
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP' || code === 'EMLINK') return null
        throw error
      }
      return { id, size: (await fs.promises.stat(localFile)).size }
    },

    async commit(staged, rel) {
      const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
      const folder = await statOf(parent)
      if (!folder) throw notFound()
      if (folder.type !== 'directory') throw badRequest(STORAGE_TEXT.notFolder)
      if ((await statOf(rel))?.type === 'directory') throw conflict(STORAGE_TEXT.exists)
      const target = await resolve(rel)
      await fs.promises.rename(path.join(staging, staged.id), target)
      return toStat(rel, await fs.promises.stat(target))
    },

    async discard(staged) {
      await fs.promises.rm(path.join(staging, staged.id), { force: true })
    },

    async mkdir(rel) {
      const target = await absent(rel)
      await fs.promises.mkdir(target)
      return toStat(rel, await fs.promises.stat(target))
    },

    async copy(from, to) {
      const source = await resolve((await existing(from)).path)
      const target = await absent(to)
      // Links are skipped, as listings (and so the copy's permission and quota checks) leave them out.
      const notLink = async (file: string) => !(await fs.promises.lstat(file)).isSymbolicLink()
      await fs.promises.cp(source, target, { recursive: true, errorOnExist: true, filter: notLink })
    },

    async move(from, to) {
      const source = await resolve((await existing(from)).path)
      const target = await absent(to)
      await fs.promises.rename(source, target)
    },

    async remove(rel) {
      await existing(rel)
      await fs.promises.rm(await resolve(rel), { recursive: true, force: true })
    },
  })
}
