/**
 * What a script's host calls do (docs/operating/actions.md "What a script sees"), each with the checks the API
 * makes for the same request under the run's rights (rights.ts):
 *   db.*            /api/data/{collection}[/{id}]   data/{collection}[/{id}]:{c|r|u|d}
 *   messages.send   POST /api/{channel}             messages/{channel}:c, then the durable queue
 *   pdf.create      POST /api/pdf with save         pdf:c, the template's :r, the target's c/u
 *   fetch           guarded against loopback and private addresses (fetch.ts)
 * A debug run records writes, sends and PDFs instead of doing them (a dry run), after the same checks.
 *
 * Every data write of a run carries the run's cause tag as its idempotency key (unique per write, so
 * it never replays anything): it lands on the write's change-log row, which is how an EVENT action
 * triggered by that change knows how deep the chain of runs already is (schedule.ts, the loop guard)
 * and which chain it belongs to (budget.ts, the budget per causing change). A write past the chain's
 * write budget fails, and the run is recorded as stopped by it.
 */
import crypto from 'node:crypto'
import { ACTION_LIMITS } from '../../shared/actions'
import { isValidCollectionName, isValidId } from '../../shared/ids'
import { isPlainObject } from '../../shared/merge-patch'
import { MESSAGE_CHANNELS, type MessageChannel } from '../../shared/messaging'
import type { Method } from '../../shared/permissions'
import { ACTION_TEXT, MESSAGING_TEXT } from '../../shared/texts'
import { serverHmac } from '../auth/server-key'
import { composeBatch } from '../messages/batch'
import { shownTo } from '../messages/recipients'
import { given, pdfSaveTarget, pdfSource, renderPdf } from '../pdf/request'
import type { Services } from '../services'
import { saveFile } from '../storage/save-file'
import type { Doc } from '../store/types'
import { guardedFetch } from './fetch'
import type { DbOp, HostOp } from './protocol'
import type { RunRights } from './rights'

const DATA_PREFIX = 'data/'
/**
 * Idempotency keys of writes made by action runs: `action-run:{depth}:{run id}:{chain}:{nonce}:{mac}`
 * (ids and chains hold no colon). The MAC
 * (the server key's, the same on every instance) keeps a client from sending such a key with its own
 * write to make EVENT actions skip it as the end of a loop.
 */
const CAUSE_PREFIX = 'action-run:'
const CAUSE_PURPOSE = 'action-cause'

/** A write, send or PDF a dry run did not do. */
export interface RecordedWrite {
  op: 'create' | 'update' | 'delete' | 'send' | 'pdf'
  collection?: string
  id?: string
  channel?: string
  body?: unknown
}

export interface HostContext {
  services: Services
  rights: RunRights
  /**
   * This run's id, its depth in a chain of EVENT runs (0 for HTTP, CRON and debug runs) and the chain
   * it belongs to (budget.ts).
   */
  run: { id: string; depth: number; chain: string }
  /** Debug: where the writes not done go; null when writes are done. */
  dryRun: RecordedWrite[] | null
  /** What is left of the chain's write budget; the host counts the writes done against it. */
  budget: WriteBudget
}

export interface WriteBudget {
  left: number
  done: number
  /** Set when a write was refused because the budget was spent: the run is recorded as stopped. */
  spent: boolean
}

/** What a change-log row's idempotency key says about its cause, if an action run made it. */
export interface Cause {
  depth: number
  run: string
  chain: string
}

/** The run a change-log row's idempotency key names as its cause, if an action run made it. */
export function causeOf(services: Services, key: string | null): Cause | null {
  if (!key?.startsWith(CAUSE_PREFIX)) return null
  const [depth, run, chain, nonce, mac, extra] = key.slice(CAUSE_PREFIX.length).split(':')
  const n = Number(depth)
  if (!Number.isInteger(n) || n < 0 || !run || !chain || !nonce || !mac || extra !== undefined) return null
  const expected = Buffer.from(serverHmac(services.config.dataDir, CAUSE_PURPOSE, depth!, run, chain, nonce))
  const given = Buffer.from(mac)
  return given.length === expected.length && crypto.timingSafeEqual(given, expected)
    ? { depth: n, run, chain }
    : null
}

function causeKey(services: Services, run: HostContext['run']): string {
  const nonce = crypto.randomBytes(6).toString('base64url')
  const mac = serverHmac(services.config.dataDir, CAUSE_PURPOSE, String(run.depth), run.id, run.chain, nonce)
  return `${CAUSE_PREFIX}${run.depth}:${run.id}:${run.chain}:${nonce}:${mac}`
}

/**
 * A data write counted against the chain's budget, or refused once the budget is spent. Counted before
 * it is made, so writes a script starts all at once cannot pass the check together; given back if it
 * fails, as it then changed nothing.
 */
async function spending<T>(budget: WriteBudget, write: () => Promise<T>): Promise<T> {
  if (budget.done >= budget.left) {
    budget.spent = true
    throw new Error(ACTION_TEXT.budgetChainWrites(ACTION_LIMITS.maxChainWrites))
  }
  budget.done++
  try {
    return await write()
  } catch (error) {
    budget.done--
    throw error
  }
}

/** An API refusal as the error the script sees: `{api}: {the API's message}`. */
async function withPrefix<T>(api: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw new Error(`${api}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export function hostCall(ctx: HostContext, op: HostOp, args: unknown[]): Promise<unknown> {
  switch (op) {
    case 'fetch':
      return guardedFetch(args[0], args[1])
    case 'send':
      return sendMessage(ctx, args)
    case 'pdf':
      return createPdf(ctx, args)
    default:
      return dbCall(ctx, op, args)
  }
}

const LETTER: Record<DbOp, Method> = { get: 'r', list: 'r', create: 'c', update: 'u', delete: 'd' }

/** One db call of a script, with the checks /api/data makes for the same request. */
async function dbCall(ctx: HostContext, op: DbOp, args: unknown[]): Promise<unknown> {
  const { services, rights, dryRun } = ctx
  const [name, second, third] = args
  if (!isValidCollectionName(name)) throw new Error('db: invalid collection name')
  const collection = `${DATA_PREFIX}${name}`
  const needsId = op === 'get' || op === 'update' || op === 'delete'
  if (needsId && !isValidId(second)) throw new Error('db: invalid id')
  let id = needsId ? (second as string) : undefined
  if (op === 'create' && isPlainObject(second) && second._id !== undefined) {
    if (!isValidId(second._id)) throw new Error('db: invalid id')
    id = second._id
  }
  const path = id !== undefined && op !== 'create' ? `${collection}/${id}` : collection
  const needed = `${path}:${LETTER[op]}`
  if (!rights.allows(needed)) throw new Error(ACTION_TEXT.dbForbidden(needed))
  const { store } = services
  const context = { user: rights.user, idempotencyKey: causeKey(services, ctx.run) }
  switch (op) {
    case 'get':
      return store.get(collection, id!)
    case 'list': {
      const query = isPlainObject(second) ? second : {}
      const limit = Math.min(typeof query.limit === 'number' ? query.limit : 100, 1000)
      const filter = isPlainObject(query.filter) ? query.filter : undefined
      const { items } = await store.list(collection, { filter, limit })
      return items.filter((doc) => rights.allows(`${collection}/${doc._id}:r`))
    }
    case 'create':
    case 'update': {
      const body = op === 'create' ? second : third
      if (!isPlainObject(body)) throw new Error('db: the document must be an object')
      if (dryRun) {
        dryRun.push({ op, collection: name, id, body })
        return { ...body, _id: id ?? null, dryRun: true }
      }
      const write =
        op === 'create'
          ? ({ op: 'create', collection, id, body } as const)
          : ({ op: 'patch', collection, id: id!, body } as const)
      return spending(ctx.budget, async () => (await store.write(write, context)).body)
    }
    case 'delete':
      if (dryRun) {
        dryRun.push({ op, collection: name, id })
        return { ok: true, _id: id, dryRun: true }
      }
      return spending(
        ctx.budget,
        async () => (await store.write({ op: 'delete', collection, id: id! }, context)).body,
      )
  }
}

/** messages.send(channel, message): what POST /api/{channel} does, as the run's user. */
async function sendMessage(ctx: HostContext, args: unknown[]): Promise<unknown> {
  const { services, rights, dryRun } = ctx
  const [channel, body] = args
  if (!MESSAGE_CHANNELS.includes(channel as MessageChannel))
    throw new Error(`messages: ${MESSAGING_TEXT.channelInvalid}`)
  if (!isPlainObject(body)) throw new Error('messages: the message must be an object')
  const needed = `messages/${channel as string}:c`
  if (!rights.allows(needed)) throw new Error(ACTION_TEXT.hostForbidden('messages', needed))
  return withPrefix('messages', async () => {
    const { batch, writes, skipped } = await composeBatch(
      services,
      rights.req,
      channel as MessageChannel,
      body,
    )
    if (dryRun) {
      dryRun.push({ op: 'send', channel: channel as string, body })
      const messages = writes.map((w) => ({
        channel,
        to: 'body' in w ? shownTo(rights.req, w.body as Doc) : null,
        dryRun: true,
      }))
      return { batch, messages, skipped }
    }
    const results = await services.store.writeMany(writes, { user: rights.user })
    void services.messages.kick()
    const messages = results.map((r) => {
      const doc = r.body as Doc
      return { _id: doc._id, channel: doc.channel, to: shownTo(rights.req, doc), status: doc.status }
    })
    return { batch, messages, skipped }
  })
}

/** pdf.create({html | url | template, data?, options?, save: {root, path}}): POST /api/pdf with save. */
async function createPdf(ctx: HostContext, args: unknown[]): Promise<unknown> {
  const { services, rights, dryRun } = ctx
  const [body] = args
  if (!isPlainObject(body)) throw new Error('pdf: the request must be an object')
  if (!rights.allows('pdf:c')) throw new Error(ACTION_TEXT.hostForbidden('pdf', 'pdf:c'))
  if (!given(body.save)) throw new Error(ACTION_TEXT.pdfNeedsSave)
  return withPrefix('pdf', async () => {
    const { source, page } = await pdfSource(services, rights.req, body)
    const target = await pdfSaveTarget(services, rights.req, body.save)
    if (dryRun) {
      dryRun.push({ op: 'pdf', body })
      return { root: target.ctx.root, path: target.path, dryRun: true }
    }
    return saveFile(rights.req, target, await renderPdf(services, source, page))
  })
}
