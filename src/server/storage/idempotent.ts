/**
 * Idempotency-Key for storage writes. A file operation cannot join the store's transaction, so the
 * request runs under the key as one step on this instance (oneAtATime): look up a stored answer, act,
 * store the answer. A replay of an upload, move, copy or delete from the console's outbox then gets
 * the first answer (with `Idempotent-Replayed`) and touches nothing. The request hash is the route's
 * usual one (http/writes.ts): for an upload the handler first puts the files' names and SHA-256 in
 * `req.body`, so a key reused for other files is refused like any other changed body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SERVER_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { oneAtATime } from '../http/one-at-a-time'
import { writeContext } from '../http/writes'
import type { Services } from '../services'

export interface Answer {
  status: number
  body: unknown
}

export async function idempotent(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  act: () => Promise<Answer>,
  onReplay?: () => Promise<void>,
): Promise<FastifyReply> {
  const { store } = services
  const ctx = writeContext(services, req)
  const key = ctx.idempotencyKey
  const run = async (): Promise<Answer & { replayed: boolean }> => {
    if (key) {
      const previous = await store.getIdempotent(key, ctx.user)
      if (previous) {
        if (previous.requestHash !== ctx.requestHash) throw badRequest(SERVER_TEXT.idempotencyMismatch)
        return { status: previous.status, body: previous.body, replayed: true }
      }
    }
    const answer = await act()
    if (key) await store.putIdempotent(key, ctx.user, ctx.requestHash!, answer.status, answer.body)
    return { ...answer, replayed: false }
  }
  const out = key ? await oneAtATime(`${ctx.user ?? ''}\n${key}`, run) : await run()
  if (out.replayed) {
    await onReplay?.()
    reply.header('idempotent-replayed', 'true')
  }
  return reply.status(out.status).send(out.body)
}
