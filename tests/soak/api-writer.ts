/**
 * The soak's API script: another user (`soak-api`) creating documents through the REST API until the
 * deadline, through a proxy of its own (so its answers get dropped too); a retry keeps the request's
 * `Idempotency-Key`, so a create whose answer was lost lands once.
 */

import type { SocketProxy } from '../e2e/socket-proxy'
import { dropOnce, sleep } from './harness'
import type { Op } from './oplog'
import type { Rand } from './prng'

export const API_COLLECTION = 'data/soak-api'

export async function apiWriter(opts: {
  proxy: SocketProxy
  token: string
  rand: Rand
  deadline: number
  nextId: (rand: Rand) => string
  /** Called with each op as it starts (the operation log), before its outcome is known. */
  made: (op: Op) => void
}): Promise<void> {
  const { proxy, token, rand } = opts
  while (Date.now() < opts.deadline) {
    const id = opts.nextId(rand)
    const op: Op = {
      id,
      actor: 'api',
      kind: 'api-create',
      collection: API_COLLECTION,
      doc: `a${id}`,
      ack: 'unknown',
    }
    opts.made(op)
    for (let attempt = 0; attempt < 20 && op.ack !== 'acked'; attempt++) {
      if (rand.chance(0.15)) proxy.dropAfterApply = dropOnce(proxy)
      try {
        const res = await fetch(`${proxy.url}/api/${API_COLLECTION}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': `api-${id}`,
          },
          body: JSON.stringify({ _id: op.doc, by: 'api' }),
        })
        if (res.status < 300) op.ack = 'acked'
        else await sleep(500)
      } catch {
        await sleep(500)
      }
    }
    await sleep(rand.int(200, 2000))
  }
}
