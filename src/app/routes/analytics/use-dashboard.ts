/**
 * One dashboard request with its offline copy: shows the cached answer for the same key at once,
 * replaces it with the server's, and keeps showing it (stale, with its "as of") when the server cannot
 * be reached; with no copy, "Not loaded on this device yet — needs the network". Errors other than
 * the network's (403, 400) are shown as the server words them.
 */
import { useCallback, useEffect, useState } from 'react'
import { ApiError, api, type Query } from '../../api/client'
import { loadErrorText } from '../../sync-ui/online-only'
import { readCached, writeCached } from './dashboard-cache'

export interface DashboardState<T> {
  data?: T
  /** When `data` was fetched, epoch ms. */
  asOf?: number
  /** true: the data is the offline copy, the last fetch failed. */
  stale: boolean
  loading: boolean
  error?: string
  reload(): void
}

export function useDashboard<T>(path: string | null, query: Query, key: string): DashboardState<T> {
  const [state, setState] = useState<Omit<DashboardState<T>, 'reload'>>({ stale: false, loading: true })
  const [tick, setTick] = useState(0)
  const queryText = JSON.stringify(query)

  // biome-ignore lint/correctness/useExhaustiveDependencies: queryText stands for query; tick reloads
  useEffect(() => {
    if (!path) return
    let live = true
    setState((s) => ({ ...s, loading: true, error: undefined }))
    void readCached<T>(key).then((cached) => {
      if (live && cached)
        setState((s) => (s.data && !s.stale ? s : { ...s, data: cached.data, asOf: cached.asOf }))
    })
    api
      .get<T>(path, { query: JSON.parse(queryText) as Query })
      .then(async (data) => {
        const asOf = Date.now()
        if (live) setState({ data, asOf, stale: false, loading: false })
        await writeCached(key, { data, asOf })
      })
      .catch(async (e: unknown) => {
        const cached = await readCached<T>(key)
        if (!live) return
        const message = loadErrorText(e)
        const network = !(e instanceof ApiError)
        if (cached && network) setState({ data: cached.data, asOf: cached.asOf, stale: true, loading: false })
        else setState({ stale: false, loading: false, error: message })
      })
    return () => {
      live = false
    }
  }, [path, queryText, key, tick])

  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { ...state, reload }
}
