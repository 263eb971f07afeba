/**
 * Grid thumbnails: the image's own bytes (fileBlob: the kept copy, else a fetch with the session's
 * token) as an object URL in an <img>, fetched only once the card scrolls into view and a few at a
 * time. The grid is virtualized, so cards scrolled away unmount: the URLs are kept in a small cache
 * (by file version, oldest dropped past a byte budget) so scrolling back does not fetch them again.
 * SVG is shown through <img> too, where its script never runs.
 * Offline, a file not kept on this device shows its icon instead of failing.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { type Entry, previewKind } from '../../storage/entries'
import { fileBlob } from '../../storage/queue'

const MAX_AT_ONCE = 3
let running = 0
const waiting: (() => void)[] = []

/** Bytes of thumbnails kept as object URLs; a file over a quarter of it is not kept (revoked with its card). */
const CACHE_BYTES = 32 * 1024 * 1024
const cache = new Map<string, { url: string; bytes: number }>()
let cachedBytes = 0

function recall(key: string): string | undefined {
  const hit = cache.get(key)
  if (hit) {
    // Most recently used last, so eviction takes the oldest first.
    cache.delete(key)
    cache.set(key, hit)
  }
  return hit?.url
}

function remember(key: string, url: string, bytes: number): void {
  cache.set(key, { url, bytes })
  cachedBytes += bytes
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_BYTES || k === key) break
    cache.delete(k)
    cachedBytes -= v.bytes
    URL.revokeObjectURL(v.url)
  }
}

async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((r) => waiting.push(r))
  running++
  try {
    return await task()
  } finally {
    running--
    waiting.shift()?.()
  }
}

export function Thumbnail({
  root,
  entry,
  kept,
  fallback,
}: {
  root: StorageRoot
  entry: Entry
  kept: boolean
  fallback: ReactNode
}) {
  const box = useRef<HTMLDivElement>(null)
  const [visible, setVisible] = useState(false)
  const [url, setUrl] = useState<string | null>(null)
  const key = `${root}|${entry.path}|${entry.modified}|${entry.size}`

  useEffect(() => {
    const el = box.current
    if (!el || typeof IntersectionObserver === 'undefined') {
      setVisible(true)
      return
    }
    const io = new IntersectionObserver((seen) => {
      if (seen.some((s) => s.isIntersecting)) {
        setVisible(true)
        io.disconnect()
      }
    })
    io.observe(el)
    return () => io.disconnect()
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the file and its version.
  useEffect(() => {
    if (!visible) return
    const hit = recall(key)
    if (hit) {
      setUrl(hit)
      return
    }
    if (!kept && !navigator.onLine) return
    let cancelled = false
    let made: string | null = null
    const svg = previewKind(entry.name, entry.contentType) === 'svg'
    limited(() => (cancelled ? Promise.resolve(null) : fileBlob(root, entry.path)))
      .then((blob) => {
        if (!blob || cancelled) return
        const url = URL.createObjectURL(svg ? new Blob([blob], { type: 'image/svg+xml' }) : blob)
        if (blob.size <= CACHE_BYTES / 4) remember(key, url, blob.size)
        else made = url
        setUrl(url)
      })
      .catch(() => {
        // No thumbnail (offline, removed meanwhile): the icon stays.
      })
    return () => {
      cancelled = true
      if (made) URL.revokeObjectURL(made)
      setUrl(null)
    }
  }, [visible, kept, root, key])

  return (
    <div className="storage-thumb" ref={box}>
      {url ? <img src={url} alt="" loading="lazy" decoding="async" /> : fallback}
    </div>
  )
}
