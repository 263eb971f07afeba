/**
 * The JSON writes of a storage root: create a folder, copy, move or rename, describe, delete.
 *
 * The guard has checked the URL's own path and method (paths.ts `storageAccess`); here each operation
 * also checks every other path it touches, so a grant cannot be side-stepped through a folder: a copy
 * reads the whole source subtree (`r` on each entry), a move changes it (`u`), a delete removes it
 * (`d`), and a destination is created (`c`). One blocked entry refuses the whole operation (403) before
 * anything changes, as dropping a collection does (http/writes.ts `sendDrop`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { STORAGE_COPY_SUFFIX } from '../../shared/constants'
import type { Method } from '../../shared/permissions'
import { STORAGE_TEXT } from '../../shared/texts'
import { requirePermission } from '../auth/guard'
import { ApiError, badRequest, conflict } from '../errors'
import { isPlainObject } from '../store/doc'
import type { BlobStat } from './blob-store'
import { idempotent } from './idempotent'
import { entryOf, forgetEntries, metaOf, recordEntries } from './meta'
import {
  baseName,
  isWithin,
  joinPath,
  parentOf,
  parsePath,
  permissionPath,
  requestPath,
  withSuffix,
} from './paths'
import { diskFull, fileBytes, isNoSpace } from './quota'
import { withRoom } from './quota-holds'
import type { RootContext } from './read'

const DESCRIPTION_MAX = 2000

/** A copy that fills the disk is undone (what it made so far is removed) and answers 507. */
async function copyOrFull(ctx: RootContext, from: string, to: string): Promise<void> {
  try {
    await ctx.blobs.copy(from, to)
  } catch (error) {
    if (!isNoSpace(error)) throw error
    if (await ctx.blobs.stat(to)) await ctx.blobs.remove(to)
    throw diskFull()
  }
}

function need(req: FastifyRequest, ctx: RootContext, path: string, letter: Method): void {
  requirePermission(req, `${permissionPath(ctx.root, path)}:${letter}`)
}

async function existing(ctx: RootContext, path: string): Promise<BlobStat> {
  const stat = await ctx.blobs.stat(path)
  if (!stat) throw new ApiError('not_found', STORAGE_TEXT.notFound)
  return stat
}

/** An entry and, for a folder, its whole subtree; each must allow `letter`. */
async function subtree(req: FastifyRequest, ctx: RootContext, path: string, letter: Method) {
  const top = await existing(ctx, path)
  const all = top.type === 'directory' ? [top, ...(await ctx.blobs.list(path, true))] : [top]
  for (const stat of all) need(req, ctx, stat.path, letter)
  return all
}

/** Every path a subtree gets at its new place must allow `c` (a move or copy creates each one). */
function needAt(req: FastifyRequest, ctx: RootContext, from: string, to: string, stats: BlobStat[]): void {
  for (const stat of stats) need(req, ctx, to + stat.path.slice(from.length), 'c')
}

/** Stats of a path and everything below it, after a write put them there. */
async function statsBelow(ctx: RootContext, path: string): Promise<BlobStat[]> {
  const top = await existing(ctx, path)
  return top.type === 'directory' ? [top, ...(await ctx.blobs.list(path, true))] : [top]
}

/** Descriptions of a subtree re-keyed to its new place (a move or a copy keeps them). */
async function carried(ctx: RootContext, from: string, to: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const docs = await metaOf(ctx.services, ctx.root, from, true)
  for (const [path, doc] of docs) {
    if (typeof doc.description === 'string') out.set(to + path.slice(from.length), doc.description)
  }
  return out
}

/** Where a move or copy lands: inside `dest` when it is a folder, else at `dest` itself. */
async function landing(ctx: RootContext, source: string, dest: string): Promise<string> {
  const stat = await ctx.blobs.stat(dest)
  return stat?.type === 'directory' ? joinPath(dest, baseName(source)) : dest
}

export function postJsonRoute(ctx: RootContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const here = requestPath(req)
    const body = isPlainObject(req.body) ? req.body : {}
    const user = req.auth.user
    if (body.directory !== undefined && body.directory !== false) {
      const path = body.directory === true ? here : joinPath(here, parsePath(body.directory))
      if (!path) throw badRequest(STORAGE_TEXT.pathMissing)
      need(req, ctx, path, 'c')
      return idempotent(ctx.services, req, reply, async () => {
        const stat = await ctx.blobs.mkdir(path)
        await recordEntries(ctx.services, user, ctx.root, [stat])
        return { status: 201, body: entryOf(stat) }
      })
    }
    if (body.from !== undefined) {
      const from = parsePath(body.from)
      if (!from) throw badRequest(STORAGE_TEXT.rootFixed)
      return idempotent(ctx.services, req, reply, async () => {
        const copied = await subtree(req, ctx, from, 'r')
        const source = copied[0]!
        let target = await landing(ctx, from, here)
        if (!target) throw badRequest(STORAGE_TEXT.pathMissing)
        // A name clash gets the SPEC §9 suffix, as often as needed: `a (COPY).txt`, `a (COPY) (COPY).txt`.
        // The suffix may take a name past the length rule: the same 400 as a name sent that long.
        while (await ctx.blobs.stat(target)) {
          target = parsePath(joinPath(parentOf(target), withSuffix(baseName(target), STORAGE_COPY_SUFFIX)))
        }
        if (source.type === 'directory' && isWithin(target, from)) throw badRequest(STORAGE_TEXT.intoItself)
        needAt(req, ctx, from, target, copied)
        // The quota's room for the copy is held until its files are there (quota-holds.ts).
        return withRoom(ctx, fileBytes(copied), 0, async () => {
          await copyOrFull(ctx, from, target)
          const stats = await statsBelow(ctx, target)
          await recordEntries(ctx.services, user, ctx.root, stats, await carried(ctx, from, target))
          return { status: 201, body: entryOf(stats[0]!) }
        })
      })
    }
    throw badRequest(STORAGE_TEXT.postBody)
  }
}

export function patchRoute(ctx: RootContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const here = requestPath(req)
    const body = isPlainObject(req.body) ? req.body : {}
    const user = req.auth.user
    const hasMove = body.move !== undefined
    const hasDescription = body.description !== undefined
    if (!hasMove && !hasDescription) throw badRequest(STORAGE_TEXT.patchBody)
    if (hasMove && (!here || typeof body.move !== 'string' || !body.move)) {
      throw badRequest(STORAGE_TEXT.moveMissing)
    }
    if (!here) throw badRequest(STORAGE_TEXT.pathMissing)
    const description = body.description
    if (
      hasDescription &&
      description !== null &&
      (typeof description !== 'string' || description.length > DESCRIPTION_MAX)
    ) {
      throw badRequest(STORAGE_TEXT.descriptionInvalid)
    }
    const dest = hasMove ? parsePath(body.move) : here
    if (!dest) throw badRequest(STORAGE_TEXT.moveMissing)
    return idempotent(ctx.services, req, reply, async () => {
      let path = here
      if (hasMove) {
        const moved = await subtree(req, ctx, here, 'u')
        path = await landing(ctx, here, dest)
        if (moved[0]!.type === 'directory' && isWithin(path, here)) throw badRequest(STORAGE_TEXT.intoItself)
        if (await ctx.blobs.stat(path)) throw conflict(STORAGE_TEXT.exists)
        needAt(req, ctx, here, path, moved)
        const keep = await carried(ctx, here, path)
        await ctx.blobs.move(here, path)
        await forgetEntries(
          ctx.services,
          user,
          ctx.root,
          moved.map((s) => s.path),
        )
        await recordEntries(ctx.services, user, ctx.root, await statsBelow(ctx, path), keep)
      }
      const stat = await existing(ctx, path)
      if (hasDescription) {
        const text = typeof description === 'string' ? description : undefined
        const doc = await ctx.services.store.get(ctx.root, path)
        const base = { ...entryOf(stat), parent: parentOf(path), description: text }
        if (doc?.description !== text || !doc) {
          await ctx.services.store.write({ op: 'put', collection: ctx.root, id: path, body: base }, { user })
        }
      }
      return { status: 200, body: entryOf(stat, await ctx.services.store.get(ctx.root, path)) }
    })
  }
}

export function deleteRoute(ctx: RootContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const here = requestPath(req)
    if (!here) throw badRequest(STORAGE_TEXT.rootFixed)
    return idempotent(ctx.services, req, reply, async () => {
      const gone = await subtree(req, ctx, here, 'd')
      await ctx.blobs.remove(here)
      await forgetEntries(
        ctx.services,
        req.auth.user,
        ctx.root,
        gone.map((s) => s.path),
      )
      return { status: 200, body: { ok: true, deleted: gone.length } }
    })
  }
}
