/**
 * The soak's operation log and its end checks (docs/contributing/reliability.md): every write the harness made,
 * whether the console (or the API) acknowledged it, and what the server's change log says happened.
 * Acknowledged = the console's mutate promise resolved (row and outbox entry stored: the promise to
 * deliver) or the API answered 2xx. Unknown = the tab closed or the link broke before we heard.
 */
import type { E2EServer } from '../e2e/fixtures'

export type Ack = 'acked' | 'refused' | 'unknown'

export interface Op {
  id: string
  actor: string
  kind: 'create' | 'patch' | 'delete' | 'api-create' | 'settings' | 'upload' | 'submission'
  collection: string
  doc: string
  ack: Ack
  /** A settings write's `value`: unique per op, so the change log shows whether (and how often) it landed. */
  value?: string
  /** An upload's bytes (SHA-256, hex) and size: uploads.ts downloads the stored file and compares. */
  sha256?: string
  size?: number
}

export interface Change {
  seq?: number
  collection: string
  id: string
  op: 'upsert' | 'delete'
  rev: number
  doc: Record<string, unknown> | null
  idempotencyKey: string | null
}

/** The whole change log as `token` may read it (GET /api/sync, page by page). */
export async function changeLog(server: E2EServer, token: string): Promise<Change[]> {
  const all: Change[] = []
  let cursor = 0
  let epoch = ''
  for (;;) {
    const q = `/api/sync?cursor=${cursor}&limit=2000${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`
    const res = await server.api<{ changes: Change[]; cursor: number; more: boolean; epoch: string }>(q, {
      token,
    })
    if (res.status !== 200) throw new Error(`GET /api/sync: ${res.status}`)
    all.push(...res.body.changes)
    if (!res.body.more) return all
    cursor = res.body.cursor
    epoch = res.body.epoch
  }
}

/** Problems found; empty when every acknowledged write landed exactly once and nothing else did. */
export function checkOps(
  ops: Op[],
  log: Change[],
  final: Map<string, Record<string, unknown>[]>,
  /** `collection/id` of the documents the harness made before the run (the shared ones). */
  seeded: string[] = [],
): string[] {
  const problems: string[] = []
  // No request applied twice: an idempotency key names one outbox entry (or one API call).
  const byKey = new Map<string, number>()
  for (const c of log)
    if (c.idempotencyKey) byKey.set(c.idempotencyKey, (byKey.get(c.idempotencyKey) ?? 0) + 1)
  for (const [key, n] of byKey) if (n > 1) problems.push(`idempotency key ${key} applied ${n} times`)

  const docsOf = (collection: string) => final.get(collection) ?? []
  const created = new Map<string, number>()
  for (const c of log) {
    if (c.op === 'upsert' && c.rev === 1) {
      const k = `${c.collection}/${c.id}`
      created.set(k, (created.get(k) ?? 0) + 1)
    }
  }
  const deletedOk = new Set(
    ops.filter((o) => o.kind === 'delete' && o.ack !== 'refused').map((o) => `${o.collection}/${o.doc}`),
  )
  const made = new Set(ops.filter((o) => o.ack !== 'refused').map((o) => `${o.collection}/${o.doc}`))
  const patchFields = new Set(
    ops.filter((o) => o.kind === 'patch' && o.ack !== 'refused').map((o) => `op_${o.id}`),
  )

  for (const o of ops) {
    const key = `${o.collection}/${o.doc}`
    if (o.kind === 'create' || o.kind === 'api-create') {
      const n = created.get(key) ?? 0
      if (n > 1) problems.push(`${key} created ${n} times`)
      if (o.ack === 'acked' && n === 0) problems.push(`acknowledged create of ${key} never applied`)
      const present = docsOf(o.collection).some((d) => d._id === o.doc)
      if (o.ack === 'acked' && !present && !deletedOk.has(key)) problems.push(`${key} missing at the end`)
    }
    if (o.kind === 'patch' && o.ack === 'acked') {
      const doc = docsOf(o.collection).find((d) => d._id === o.doc)
      if (doc?.[`op_${o.id}`] !== 1) problems.push(`acknowledged patch ${o.id} of ${key} not applied`)
    }
    if (o.kind === 'delete' && o.ack === 'acked' && docsOf(o.collection).some((d) => d._id === o.doc)) {
      problems.push(`acknowledged delete of ${key} not applied`)
    }
  }
  // Settings (a put of {value} on an id of the device's own): each acknowledged value reaches the log,
  // and no soak setting ever held a value nobody wrote. The final values are the mirror hash's to check.
  const settingValues = new Set(
    ops.filter((o) => o.kind === 'settings' && o.ack !== 'refused').map((o) => `${o.doc}=${o.value}`),
  )
  const logged = new Set(
    log
      .filter((c) => c.collection === 'settings' && c.id.startsWith('soak_') && c.op === 'upsert')
      .map((c) => `${c.id}=${String(c.doc?.value)}`),
  )
  for (const o of ops) {
    if (o.kind === 'settings' && o.ack === 'acked' && !logged.has(`${o.doc}=${o.value}`))
      problems.push(`acknowledged settings write ${o.doc}=${o.value} never applied`)
  }
  for (const v of logged) if (!settingValues.has(v)) problems.push(`settings ${v} was never written`)

  // Nothing applied that was not made: every document and every patch field comes from an op.
  for (const [collection, docs] of final) {
    for (const d of docs) {
      const key = `${collection}/${d._id}`
      if (!made.has(key) && !seeded.includes(key)) {
        problems.push(`${collection}/${d._id} exists but was never written`)
      }
      for (const f of Object.keys(d)) {
        if (f.startsWith('op_') && !patchFields.has(f))
          problems.push(`${collection}/${d._id}.${f} was never written`)
      }
    }
  }
  return problems
}
