/**
 * The engine's only door to IndexedDB. Browsers drop connections (storage pressure, a version change
 * from a newer tab, "UnknownError" after a crash) and refuse writes when the quota is full; both must
 * surface as a status the UI can show, never as silently lost data. A lost connection is reopened
 * through the db port and the work retried once; a full disk is reported and the write rejected, so a
 * mutate() that was not stored never resolves. The outbox is never cleared here.
 * 'full' is cleared only by a successful WRITE: a read succeeds on a full disk too, so it proves nothing
 * about room (reads go through `read()`, everything that writes through `run()`).
 */
import type { MomentumDb } from '../db/schema'
import type { DbPort } from './ports'

export type StorageState = 'ok' | 'full' | 'reconnecting' | 'failed'

export class StorageError extends Error {
  constructor(
    readonly reason: 'quota' | 'unavailable',
    override readonly cause: unknown,
  ) {
    super(
      reason === 'quota'
        ? 'The device storage is full; the change was not saved'
        : 'Local storage is unavailable; the change was not saved',
    )
    this.name = 'StorageError'
  }
}

const CONNECTION_LOST = new Set([
  'DatabaseClosedError',
  'InvalidStateError',
  'UnknownError',
  'TransactionInactiveError',
])

function errorNames(e: unknown): string[] {
  const names: string[] = []
  let cur: unknown = e
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const { name, inner } = cur as { name?: unknown; inner?: unknown }
    if (typeof name === 'string') names.push(name)
    cur = inner
  }
  return names
}

export const isQuotaError = (e: unknown) => errorNames(e).includes('QuotaExceededError')
export const isConnectionLost = (e: unknown) => errorNames(e).some((n) => CONNECTION_LOST.has(n))

export class Storage {
  private current: MomentumDb | null = null
  private state: StorageState = 'ok'
  /** The last write failed for lack of room and no write has worked since. */
  private full = false

  constructor(
    private readonly port: DbPort,
    readonly name: string,
    private readonly onState: (state: StorageState) => void,
  ) {}

  get db(): MomentumDb {
    if (!this.current) throw new StorageError('unavailable', null)
    return this.current
  }

  async open(): Promise<MomentumDb> {
    this.current = await this.port.open(this.name)
    return this.current
  }

  close(): void {
    this.current?.close()
    this.current = null
  }

  private set(state: StorageState) {
    if (state === this.state) return
    this.state = state
    this.onState(state)
  }

  /** Worked: a write proves there is room again; a read only that the connection is back. */
  private succeeded(write: boolean) {
    if (write) this.full = false
    this.set(this.full ? 'full' : 'ok')
  }

  private quota(error: unknown): StorageError {
    this.full = true
    this.set('full')
    return new StorageError('quota', error)
  }

  /**
   * Runs `fn`, which writes, on the database, reopening once after a lost connection. `wrote` tells
   * from its result whether it did write (a streamed page may find nothing to store): only then does
   * its success clear 'full'.
   */
  run<T>(fn: (db: MomentumDb) => Promise<T>, wrote: (result: T) => boolean = () => true): Promise<T> {
    return this.attempt(fn, wrote)
  }

  /** Like run() for work that only reads: its success does not clear a 'full' state. */
  read<T>(fn: (db: MomentumDb) => Promise<T>): Promise<T> {
    return this.attempt(fn, () => false)
  }

  private async attempt<T>(fn: (db: MomentumDb) => Promise<T>, wrote: (result: T) => boolean): Promise<T> {
    try {
      const result = await fn(this.db)
      this.succeeded(wrote(result))
      return result
    } catch (error) {
      if (isQuotaError(error)) throw this.quota(error)
      if (!isConnectionLost(error) || !this.current) throw error
    }
    this.set('reconnecting')
    try {
      this.current?.close()
      await this.open()
      const result = await fn(this.db)
      this.succeeded(wrote(result))
      return result
    } catch (error) {
      if (isQuotaError(error)) throw this.quota(error)
      this.set('failed')
      throw isConnectionLost(error) ? new StorageError('unavailable', error) : error
    }
  }
}
