/**
 * The import's life on the page (issue 11): file → preview (parsed in import.worker.ts) → stored on
 * this device (bulk, in the worker, "N of M stored on this device") → sent ("Sent N of M", followed
 * from the outbox: the rows' mutation ids share a prefix, so what is left of them in the outbox and
 * what went to the inbox are counted with a live query) → one final toast, only when the server has
 * confirmed every row (or refused some: they wait in the Sync panel). The page thread only renders.
 */
import * as Comlink from 'comlink'
import { useLiveQuery } from 'dexie-react-hooks'
import { useCallback, useEffect, useRef, useState } from 'react'
import { SCREENS_TEXT, TRANSFER_TEXT } from '../../../shared/texts'
import { countByPrefix } from '../../../sync/bulk'
import { useSyncDb } from '../../data/sync-context'
import { whenReady } from '../../data/sync-session'
import { notifyBatchSaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useSession } from '../../session/use-session'
import type { ImportOutcome, ImportPreview, ImportWorkerApi } from './import.worker'

export type ImportPhase =
  | { kind: 'idle' }
  | { kind: 'reading'; fileName: string }
  | { kind: 'preview'; fileName: string; preview: ImportPreview }
  | { kind: 'storing'; done: number; total: number }
  | { kind: 'sending'; prefix: string; total: number; outcome: ImportOutcome; rows: number }

export interface ImportControl {
  phase: ImportPhase
  /** "Sent N of M" while sending. */
  sent: { done: number; total: number } | null
  start(file: File): Promise<void>
  answer(ok: boolean): Promise<void>
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

export function useImport(collection: string): ImportControl {
  const db = useSyncDb()
  const { permissions } = useSession()
  const [phase, setPhase] = useState<ImportPhase>({ kind: 'idle' })
  const worker = useRef<{ raw: Worker; api: Comlink.Remote<ImportWorkerApi> } | null>(null)

  const stopWorker = useCallback(() => {
    worker.current?.raw.terminate()
    worker.current = null
  }, [])
  useEffect(() => stopWorker, [stopWorker])

  const prefix = phase.kind === 'sending' ? phase.prefix : null
  const counts = useLiveQuery(async () => (db && prefix ? countByPrefix(db, prefix) : null), [db, prefix])
  const sent =
    phase.kind === 'sending' && counts
      ? { done: phase.outcome.stored - counts.queued - counts.failed, total: phase.outcome.stored }
      : null

  // The end: nothing of this import is left in the outbox.
  useEffect(() => {
    if (phase.kind !== 'sending' || !counts || counts.queued > 0) return
    const saved = phase.outcome.stored - counts.failed + phase.outcome.unchanged
    // Told only once the outbox holds none of it: every row has reached the server.
    notifyBatchSaved(saved, phase.rows, 'documents', true)
    if (counts.failed) toast.warning(TRANSFER_TEXT.needReview(counts.failed))
    else if (phase.outcome.firstError) toast.error(phase.outcome.firstError)
    setPhase({ kind: 'idle' })
  }, [phase, counts])

  return {
    phase,
    sent,
    async start(file) {
      const client = await whenReady()
      stopWorker()
      const raw = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' })
      const api = Comlink.wrap<ImportWorkerApi>(raw)
      worker.current = { raw, api }
      setPhase({ kind: 'reading', fileName: file.name })
      try {
        const preview = await api.parse(file, file.name, { database: client.database, collection })
        if (preview.total === 0) {
          toast.warning(SCREENS_TEXT.importNothing)
          stopWorker()
          setPhase({ kind: 'idle' })
          return
        }
        setPhase({ kind: 'preview', fileName: file.name, preview })
      } catch (e) {
        toast.error(errorText(e))
        stopWorker()
        setPhase({ kind: 'idle' })
      }
    },
    async answer(ok) {
      const api = worker.current?.api
      if (phase.kind !== 'preview' || !api) return
      if (!ok) {
        stopWorker()
        setPhase({ kind: 'idle' })
        return
      }
      const total = phase.preview.total
      setPhase({ kind: 'storing', done: 0, total })
      try {
        const client = await whenReady()
        const id = `import-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-`
        const outcome = await api.store(
          client.user,
          [...permissions],
          id,
          Comlink.proxy((done: number, all: number) => setPhase({ kind: 'storing', done, total: all })),
        )
        stopWorker()
        // The engine also notices the new outbox entries by itself; this only saves it a wait.
        void client.kick().catch(() => undefined)
        setPhase({ kind: 'sending', prefix: id, total, outcome, rows: total })
      } catch (e) {
        toast.error(errorText(e))
        stopWorker()
        setPhase({ kind: 'idle' })
      }
    },
  }
}
