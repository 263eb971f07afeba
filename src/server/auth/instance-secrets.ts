/**
 * The secrets an instance signs and derives with: the session-signing secret (tokens.ts), the server's
 * HMAC key (server-key.ts: idempotency hashes, share links) and the VAPID key pair (push/vapid.ts).
 *
 * With SQLite they stay files in the data dir, beside the database they belong with. With PostgreSQL
 * they live in its `secrets` table (kind INSTANCE_SECRET), so instances on one database agree without
 * sharing a volume: a token issued by one is accepted by another, a push subscription made through one
 * is signed for by all. Each start claims every secret with a candidate and uses what the table holds
 * (SecretStore.claim: of instances starting at once, one wins and all take its value). The candidate is
 * the data dir's file when there is one, so a setup that shared a volume before keeps its sessions and
 * push subscriptions when it moves; otherwise a fresh random value. No file is written then.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'
import { readVapidFile, shareVapidKeys, type VapidKeys } from '../push/vapid'
import type { DocumentStore } from '../store/types'
import { shareServerKey } from './server-key'
import { loadSecret } from './tokens'

export const INSTANCE_SECRET = '_instance'

function fileText(dataDir: string, name: string): string | null {
  const file = path.join(dataDir, name)
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null
}

/** The session-signing secret; with PostgreSQL also hands the HMAC key and VAPID pair to their modules. */
export async function loadInstanceSecrets(dataDir: string, store: DocumentStore): Promise<Uint8Array> {
  if (store.kind !== 'postgres') return loadSecret(dataDir)
  const claim = (id: string, candidate: string) => store.secrets.claim(INSTANCE_SECRET, id, candidate)
  const session = await claim(
    'session',
    fileText(dataDir, 'jwt.secret') ?? crypto.randomBytes(48).toString('base64'),
  )
  const serverKey = await claim(
    'server-key',
    fileText(dataDir, 'server.key') ?? crypto.randomBytes(32).toString('base64'),
  )
  const vapid = JSON.parse(
    await claim('vapid', JSON.stringify(readVapidFile(dataDir) ?? webpush.generateVAPIDKeys())),
  ) as VapidKeys
  shareServerKey(dataDir, Buffer.from(serverKey, 'base64'))
  shareVapidKeys(dataDir, { publicKey: vapid.publicKey, privateKey: vapid.privateKey })
  return new TextEncoder().encode(session)
}
