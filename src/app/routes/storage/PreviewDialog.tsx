/**
 * A file's preview in a modal <dialog> (focus trap and Escape from the browser): images and SVG as
 * <img> from a blob URL (an SVG's script never runs there), PDF pages drawn by pdf.js (loaded only now),
 * audio and video players, text and code as plain text — HTML included: uploaded pages are never
 * rendered inside the console. The bytes come from fileBlob (the kept copy, else the network); a file
 * not kept offline says plainly that it needs the network.
 */
import { Download, X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { STORAGE_BROWSER_TEXT } from '../../../shared/texts'
import { formatBytes } from '../../components/format'
import '../../feedback/feedback.css'
import { type Entry, previewKind } from '../../storage/entries'
import { fileBlob } from '../../storage/queue'
import { isNetworkError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

/** Text previews stop here: a log of gigabytes is a download, not a <pre>. */
const TEXT_PREVIEW_BYTES = 512 * 1024

type Loaded =
  | { state: 'loading'; loaded: number; total: number }
  | { state: 'offline' }
  | { state: 'error'; message: string }
  | { state: 'ready'; blob: Blob }

export function PreviewDialog({
  root,
  entry,
  kept,
  onClose,
  actions,
}: {
  root: StorageRoot
  entry: Entry
  kept: boolean
  onClose: () => void
  /** Download, copy link, keep offline…: the screen's own buttons for this file. */
  actions: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const kind = previewKind(entry.name, entry.contentType)
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading', loaded: 0, total: entry.size })
  // The toolbar's state, not navigator.onLine (true with the server cut off behind a working network);
  // when it comes back the effect below runs again and loads the file.
  const reachable = useServerReachable()

  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    return () => dialog?.close()
  }, [])

  useEffect(() => {
    if (kind === 'none') return
    if (!kept && !reachable) {
      setLoaded({ state: 'offline' })
      return
    }
    let cancelled = false
    setLoaded({ state: 'loading', loaded: 0, total: entry.size })
    fileBlob(root, entry.path, (l, t) => {
      if (!cancelled) setLoaded({ state: 'loading', loaded: l, total: t || entry.size })
    })
      .then((blob) => !cancelled && setLoaded({ state: 'ready', blob }))
      .catch((e: unknown) => {
        if (cancelled) return
        // Failed for lack of a link (the fetch's own error, or kept.ts's when the browser is offline).
        if (!kept && (isNetworkError(e) || !navigator.onLine)) setLoaded({ state: 'offline' })
        else setLoaded({ state: 'error', message: e instanceof Error ? e.message : String(e) })
      })
    return () => {
      cancelled = true
    }
  }, [root, entry.path, entry.size, kept, kind, reachable])

  return (
    <dialog
      ref={ref}
      className="mc-dialog storage-preview"
      aria-labelledby={titleId}
      data-testid="storage-preview"
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <div className="mc-dialog-body">
        <div className="storage-preview-head">
          <div>
            <h2 id={titleId} className="mc-dialog-title">
              {entry.name}
            </h2>
            <p className="muted">
              {formatBytes(entry.size)} · {entry.modified ? new Date(entry.modified).toLocaleString() : '—'}
              {entry.contentType ? ` · ${entry.contentType}` : ''}
            </p>
            {entry.description && <p className="storage-description">{entry.description}</p>}
          </div>
          <button type="button" className="button button-quiet" aria-label="Close preview" onClick={onClose}>
            <X size={18} aria-hidden="true" />
          </button>
        </div>
        <div className="storage-preview-body">
          {kind === 'none' ? (
            <p className="muted">{STORAGE_BROWSER_TEXT.noPreview}</p>
          ) : loaded.state === 'offline' ? (
            <p className="notice notice-warning" role="status">
              {STORAGE_BROWSER_TEXT.needsNetwork}
            </p>
          ) : loaded.state === 'error' ? (
            <p className="notice notice-warning" role="alert">
              {loaded.message}
            </p>
          ) : loaded.state === 'loading' ? (
            <div className="storage-preview-loading" role="status">
              <progress aria-label={`Loading ${entry.name}`} max={loaded.total || 1} value={loaded.loaded} />
              <span className="muted">
                <Download size={14} aria-hidden="true" /> {formatBytes(loaded.loaded)} /{' '}
                {formatBytes(loaded.total)}
              </span>
            </div>
          ) : (
            <Content kind={kind} blob={loaded.blob} name={entry.name} />
          )}
        </div>
        <div className="mc-dialog-actions storage-preview-actions">{actions}</div>
      </div>
    </dialog>
  )
}

function useObjectUrl(blob: Blob, type?: string): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    const made = URL.createObjectURL(type ? new Blob([blob], { type }) : blob)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [blob, type])
  return url
}

function Content({ kind, blob, name }: { kind: ReturnType<typeof previewKind>; blob: Blob; name: string }) {
  if (kind === 'pdf') return <PdfView blob={blob} name={name} />
  if (kind === 'text') return <TextView blob={blob} name={name} />
  return <MediaView kind={kind} blob={blob} name={name} />
}

function MediaView({ kind, blob, name }: { kind: string; blob: Blob; name: string }) {
  // An SVG goes into <img> with its own type, where the browser never runs its script.
  const url = useObjectUrl(blob, kind === 'svg' ? 'image/svg+xml' : undefined)
  if (!url) return null
  // biome-ignore lint/a11y/useMediaCaption: user files come without caption tracks.
  if (kind === 'audio') return <audio controls src={url} aria-label={name} className="storage-media" />
  if (kind === 'video')
    return (
      // biome-ignore lint/a11y/useMediaCaption: user files come without caption tracks.
      <video controls src={url} aria-label={name} className="storage-media" />
    )
  return <img src={url} alt={name} className="storage-image" />
}

function TextView({ blob, name }: { blob: Blob; name: string }) {
  const [text, setText] = useState<string | null>(null)
  useEffect(() => {
    let cancelled = false
    void blob
      .slice(0, TEXT_PREVIEW_BYTES)
      .text()
      .then((t) => !cancelled && setText(t))
    return () => {
      cancelled = true
    }
  }, [blob])
  const html = /\.(html?|xhtml)$/i.test(name)
  return (
    <>
      {html && <p className="muted">{STORAGE_BROWSER_TEXT.htmlAsText}</p>}
      {blob.size > TEXT_PREVIEW_BYTES && <p className="muted">{STORAGE_BROWSER_TEXT.tooLargeForText}</p>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard. */}
      <pre className="storage-text" data-testid="storage-text-preview" tabIndex={0}>
        {text ?? ''}
      </pre>
    </>
  )
}

function PdfView({ blob, name }: { blob: Blob; name: string }) {
  const box = useRef<HTMLDivElement>(null)
  const [error, setError] = useState<string | null>(null)
  const [pages, setPages] = useState<number | null>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    let cancelled = false
    let cancel: (() => void) | null = null
    void (async () => {
      try {
        const [{ renderPdf }, data] = await Promise.all([import('./pdf-render'), blob.arrayBuffer()])
        if (cancelled) return
        const width = Math.min(el.clientWidth || 600, 900)
        const handle = await renderPdf(data, el, width, (n) => `Page ${n} of ${name}`)
        if (cancelled) handle.cancel()
        else {
          cancel = handle.cancel
          setPages(handle.pages)
        }
      } catch (e) {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e))
      }
    })()
    return () => {
      cancelled = true
      cancel?.()
      el.replaceChildren()
    }
  }, [blob, name])
  return (
    <>
      {error && (
        <p className="notice notice-warning" role="alert">
          {error}
        </p>
      )}
      {pages !== null && (
        <p className="muted" data-testid="pdf-pages">
          {pages === 1 ? '1 page' : `${pages} pages`}
        </p>
      )}
      <div ref={box} className="storage-pdf" />
    </>
  )
}
