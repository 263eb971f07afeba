/**
 * MutationError.code and StorageError.reason across the comlink boundary (src/worker/error-transfer.ts):
 * the serialize/deserialize pair, and a real comlink call over a MessageChannel that throws each kind.
 */
import * as Comlink from 'comlink'
import { afterAll, expect, test } from 'vitest'
import { MutationError } from '../../src/sync/requests'
import { StorageError } from '../../src/sync/storage'
import { registerErrorTransfer, thrownFromWire, thrownToWire } from '../../src/worker/error-transfer'

const roundTrip = (value: unknown) => thrownFromWire(structuredClone(thrownToWire(value)))

test('MutationError keeps its class, name, message and code', () => {
  const back = roundTrip(new MutationError('conflict-open', 'products/p1 has an unresolved conflict'))
  expect(back).toBeInstanceOf(MutationError)
  expect(back).toMatchObject({
    name: 'MutationError',
    code: 'conflict-open',
    message: 'products/p1 has an unresolved conflict',
  })
})

test('StorageError keeps its class, name, message and reason', () => {
  const original = new StorageError('quota', new DOMException('full', 'QuotaExceededError'))
  const back = roundTrip(original)
  expect(back).toBeInstanceOf(StorageError)
  expect(back).toMatchObject({ name: 'StorageError', reason: 'quota', message: original.message })
  expect(roundTrip(new StorageError('unavailable', null))).toMatchObject({ reason: 'unavailable' })
})

test('other errors keep name, message and a code; thrown non-errors pass as they are', () => {
  const e = Object.assign(new TypeError('boom'), { code: 'E_X' })
  const back = roundTrip(e) as Error & { code?: string }
  expect(back).toBeInstanceOf(Error)
  expect(back).toMatchObject({ name: 'TypeError', message: 'boom', code: 'E_X' })
  expect(back.stack).toBe(e.stack)
  expect(roundTrip('plain string')).toBe('plain string')
  expect(roundTrip({ status: 409 })).toEqual({ status: 409 })
})

const { port1, port2 } = new MessageChannel()
afterAll(() => {
  port1.close()
  port2.close()
})

test('through comlink: the page side gets the classes back with code and reason', async () => {
  registerErrorTransfer()
  registerErrorTransfer() // idempotent: a second registration still works
  Comlink.expose(
    {
      mutate() {
        throw new MutationError('exists', 'products/p1 already exists')
      },
      async store() {
        throw new StorageError('quota', null)
      },
    },
    port1 as unknown as Comlink.Endpoint,
  )
  const remote = Comlink.wrap<{ mutate(): void; store(): Promise<void> }>(
    port2 as unknown as Comlink.Endpoint,
  )
  const m = await remote.mutate().catch((e: unknown) => e)
  expect(m).toBeInstanceOf(MutationError)
  expect(m).toMatchObject({ code: 'exists', message: 'products/p1 already exists' })
  const s = await remote.store().catch((e: unknown) => e)
  expect(s).toBeInstanceOf(StorageError)
  expect(s).toMatchObject({ reason: 'quota', name: 'StorageError' })
  remote[Comlink.releaseProxy]()
})
