/**
 * Actions and their runs from the local mirror, live: `actions` and `action-runs` are ordinary synced
 * collections, so the list, the editor and the history work offline, and a run the server records
 * (HTTP, CRON, EVENT or debug) reaches the history through the sync stream as it finishes — that is the
 * live tail. A user who may read an action but not `action-runs` gets the action's runs from
 * GET /api/actions/{id}/runs and the tail from the websocket topic ACTION_RUNS_TOPIC, which the server
 * sends to readers of the action (src/server/actions/history.ts). Running a debug needs the server and never waits in
 * the outbox.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState } from 'react'
import { browse } from '../../../db/browse'
import type { SyncDoc } from '../../../db/types'
import { ACTION_RUNS_TOPIC, type ActionRun } from '../../../shared/actions'
import { api } from '../../api/client'
import { type Rows, useRow, useRows } from '../../data/collection-rows'
import { useSyncDb } from '../../data/sync-context'
import { realtime } from '../../realtime/connection'

export const ACTIONS = 'actions'
export const ACTION_RUNS = 'action-runs'

export type RunDoc = SyncDoc & ActionRun

export const useActions = (): Rows | undefined => useRows(ACTIONS)
export const useAction = (id: string) => useRow(ACTIONS, id)

const newestFirst = (a: RunDoc, b: RunDoc) => b.start.localeCompare(a.start) || b._id.localeCompare(a._id)

/** The newest run of each action in the mirror, by action id (the list's "last run" column). */
export function useLastRuns(enabled: boolean): Map<string, RunDoc> | undefined {
  const db = useSyncDb()
  return useLiveQuery(async () => {
    if (!db || !enabled) return new Map<string, RunDoc>()
    const last = new Map<string, RunDoc>()
    for (const run of (await browse(db, ACTION_RUNS)) as RunDoc[]) {
      const seen = last.get(run.action)
      if (!seen || newestFirst(run, seen) < 0) last.set(run.action, run)
    }
    return last
  }, [db, enabled])
}

/** One action's runs, newest first: from the mirror when `mirrored`, else fetched and tailed. */
export function useRuns(action: string, live: boolean): RunDoc[] | undefined {
  const db = useSyncDb()
  const mirrored = useLiveQuery(async () => {
    if (!db || !live) return undefined
    const runs = (await browse(db, ACTION_RUNS, { filter: (d) => d.action === action })) as RunDoc[]
    return runs.sort(newestFirst)
  }, [db, action, live])
  const [fetched, setFetched] = useState<RunDoc[] | undefined>(undefined)
  useEffect(() => {
    if (live) return
    let stop = false
    const add = (runs: RunDoc[]) =>
      setFetched((known) => {
        const ids = new Set(runs.map((r) => r._id))
        return [...runs, ...(known ?? []).filter((r) => !ids.has(r._id))].sort(newestFirst)
      })
    const load = () =>
      api
        .request<RunDoc[]>(`/api/actions/${encodeURIComponent(action)}/runs`)
        .then((runs) => !stop && add(runs))
        .catch(() => !stop && add([]))
    // The tail first, and a fresh read each time the socket (re)connects: a run that finished while
    // it was away (or before it first connected) is not missed.
    realtime.subscribe(ACTION_RUNS_TOPIC)
    const off = realtime.on(ACTION_RUNS_TOPIC, (payload) => {
      const run = payload as RunDoc
      if (!stop && run?.action === action && typeof run._id === 'string') add([run])
    })
    const offState = realtime.onState((state) => state === 'connected' && void load())
    void load()
    return () => {
      stop = true
      off()
      offState()
      realtime.unsubscribe(ACTION_RUNS_TOPIC)
    }
  }, [action, live])
  return live ? mirrored : fetched
}

export interface DebugAnswer {
  run?: string
  status: 'ok' | 'error'
  result?: unknown
  error?: { kind: string; message: string; line?: number }
  logs: string[]
  timing: { start: string; durationMs: number }
  writes: Array<{ op: string; collection: string; id?: string; body?: unknown }>
  committed: boolean
}

/** POST /api/actions/debug/{id}: the saved action run with `input` (writes a dry run unless commit). */
export function debugAction(id: string, input: unknown, commit: boolean, signal?: AbortSignal) {
  return api.request<DebugAnswer>(`/api/actions/debug/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: { input, commit },
    signal,
  })
}
