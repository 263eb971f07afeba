/**
 * The server's VAPID key pair (RFC 8292). Created once, on the first start, and kept in the data dir
 * next to the database (with PostgreSQL in the database itself, auth/instance-secrets.ts, which hands
 * it over through `shareVapidKeys`): push services bind every subscription to the public key it was made with, so
 * a key that changed would silently break every subscription. The public half is published as the
 * server-managed setting `push_public_key`, which the console passes to pushManager.subscribe.
 */
import fs from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'
import type { DocumentStore } from '../store/types'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

export const VAPID_FILE = 'vapid.json'
export const PUSH_KEY_SETTING = 'push_public_key'

const shared = new Map<string, VapidKeys>()

/** The pair to use for this data dir instead of its file: the one every instance on the database shares. */
export function shareVapidKeys(dataDir: string, keys: VapidKeys): void {
  shared.set(dataDir, keys)
}

/** The key pair in the data dir's file, or null when there is none (never creates one). */
export function readVapidFile(dataDir: string): VapidKeys | null {
  const file = path.join(dataDir, VAPID_FILE)
  if (!fs.existsSync(file)) return null
  const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>
  if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string') {
    return { publicKey: keys.publicKey, privateKey: keys.privateKey }
  }
  throw new Error(`${file} is not a VAPID key pair; restore it from a backup or delete it to make a new one`)
}

/** Reads the key pair from the data dir, creating it (readable by the owner only) when missing. */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const given = shared.get(dataDir) ?? readVapidFile(dataDir)
  if (given) return given
  const keys = webpush.generateVAPIDKeys()
  // 'wx' refuses to overwrite: two instances starting together must not make two different pairs.
  try {
    fs.writeFileSync(path.join(dataDir, VAPID_FILE), JSON.stringify(keys, null, 2), {
      mode: 0o600,
      flag: 'wx',
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadVapidKeys(dataDir)
    throw error
  }
  return keys
}

/** Publishes the public key as a setting; writes only when it differs, so a restart adds no change. */
export async function publishPushKey(store: DocumentStore, publicKey: string): Promise<void> {
  const current = await store.get('settings', PUSH_KEY_SETTING)
  if (current?.value === publicKey) return
  await store.write(
    { op: 'put', collection: 'settings', id: PUSH_KEY_SETTING, body: { value: publicKey } },
    { user: null },
  )
}

/** VAPID asks for a way to reach the operator: the contact setting, the public URL, or the mail sender. */
export async function vapidSubject(store: DocumentStore, mailFrom: string): Promise<string> {
  const contact = (await store.get('settings', 'contact'))?.value
  if (typeof contact === 'string' && /^[^\s@<>]+@[^\s@<>]+$/.test(contact.trim()))
    return `mailto:${contact.trim()}`
  const publicUrl = (await store.get('settings', 'public_url'))?.value
  if (typeof publicUrl === 'string' && publicUrl.startsWith('https://')) return publicUrl
  const from = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom
  return `mailto:${from.trim() || 'no-reply@localhost'}`
}
