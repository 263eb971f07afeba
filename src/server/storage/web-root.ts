/**
 * The Web Server root (SPEC "Web Server"): the files of the `static` root served at `/`, read through
 * its BlobStore, so the site is the same whether the files live in the data dir or in an S3 bucket
 * shared by several instances. A folder answers its `index.html`. Files go out as the API's do
 * (read.ts sendFile: validators, one Range, a type from the name, nosniff) but inline whatever their
 * type, under the Web Server's sandboxing policy (http/security-headers.ts sets it on every path
 * outside /ui and /api), which is what keeps a page from acting with the console's authority.
 *
 * Paths go through the same parser as the API (paths.ts), so `..`, the staging folder and control
 * characters never reach the store; /ui and /api paths never resolve here (those belong to the
 * console and the API), and whatever is not a file answers the server's ordinary 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath, isConsolePath } from '../http/security-headers'
import type { BlobStat, BlobStore } from './blob-store'
import { joinPath, parsePath } from './paths'
import { sendFile } from './read'

const INDEX = 'index.html'

async function fileAt(blobs: BlobStore, raw: string): Promise<BlobStat | null> {
  let path: string
  try {
    path = parsePath(raw)
  } catch {
    return null
  }
  const stat = await blobs.stat(path)
  if (stat?.type !== 'directory') return stat
  const index = await blobs.stat(joinPath(path, INDEX))
  return index?.type === 'file' ? index : null
}

export function webRootRoutes(app: FastifyInstance, blobs: BlobStore): void {
  const serve = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const pathname = req.url.replace(/[?#].*$/, '')
    const stat =
      isConsolePath(pathname) || isApiPath(pathname)
        ? null
        : await fileAt(blobs, (req.params as Record<string, string | undefined>)['*'] ?? '')
    if (!stat) {
      reply.callNotFound()
      return reply
    }
    reply.header('cache-control', 'public, no-cache')
    return sendFile(req, reply, blobs, stat, 'inline')
  }
  app.get('/', serve)
  app.get('/*', serve)
}
