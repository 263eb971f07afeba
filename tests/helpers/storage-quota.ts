/**
 * What the quota race suites share (storage-quota-race.test.ts on SQLite, storage-quota-postgres.test.ts
 * on two instances): the quota and file size, the calls they race, and what they check afterwards.
 */
import { expect } from 'vitest'
import { QUOTA_HOLDS } from '../../src/server/storage/quota-holds'
import { TUS_PATH } from '../../src/shared/constants'
import type { StorageEntry } from '../../src/shared/storage'
import { STORAGE_TEXT } from '../../src/shared/texts'
import type { ApiResponse, TestServer } from './server'

export const QUOTA = 100_000
export const FILE = 30_000
export const quotaMessage = STORAGE_TEXT.quotaExceeded('97.7 KB')

export function form(name: string, bytes: Uint8Array): FormData {
  const data = new FormData()
  data.append('file', new Blob([new Uint8Array(bytes)]), name)
  return data
}

/** Bytes of the files under `folder` (the whole root with ''), as the API lists them. */
export async function storedBytes(
  server: TestServer,
  token: string,
  folder = '',
  root = 'storage',
): Promise<number> {
  const res = await server.api(`/api/${root}/${folder}?all=true`, { token })
  return (res.body as StorageEntry[]).reduce((sum, e) => sum + (e.type === 'file' ? e.size : 0), 0)
}

/** Every answer is 201 or the quota's 413; answers how many were 201. */
export function createdOrFull(answers: ApiResponse[]): number {
  for (const res of answers) {
    if (res.status !== 201) {
      expect(res.status, res.text).toBe(413)
      expect((res.body as { message: string }).message).toBe(quotaMessage)
    }
  }
  return answers.filter((r) => r.status === 201).length
}

/** The holds left in the root's ledger, by key. */
export async function holdsOf(server: TestServer): Promise<Record<string, { expires: number }>> {
  const doc = await server.services.store.get(QUOTA_HOLDS, 'storage')
  const held = (doc?.held ?? {}) as Record<string, { expires: number }>
  return Object.fromEntries(Object.entries(held).filter(([, h]) => h.expires > Date.now()))
}

const b64 = (text: string) => Buffer.from(text).toString('base64')

export function tusCreate(server: TestServer, token: string, folder: string, name: string, size: number) {
  return fetch(new URL(TUS_PATH, server.url), {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${token}`,
      'upload-length': String(size),
      'upload-metadata': `root ${b64('storage')},folder ${b64(folder)},name ${b64(name)},key ${b64(`${folder}/${name}`)}`,
    },
  })
}
