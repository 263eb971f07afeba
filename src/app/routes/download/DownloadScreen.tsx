/**
 * The share-link page (/ui/download?t=…): the file's name, size (SPEC §9 byte units), type and a
 * Download button with a real progress bar, for anyone holding the link, logged in or not. The link's
 * checks are the server's (share.ts): the page shows what it answers, in words for each case: expired
 * (410), not valid (404), the file changed or gone (404 with that message), or the network failing.
 */
import { Download, FileWarning, LoaderCircle } from 'lucide-react'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useSearch } from 'wouter'
import { DOWNLOAD_TEXT, STORAGE_TEXT } from '../../../shared/texts'
import { ApiError } from '../../api/client'
import { type SharedFile, sharedBytesUrl, sharedFile } from '../../api/share'
import { formatBytes } from '../../components/format'
import { useSite } from '../../session/use-session'
import { fetchWithProgress, saveBlob } from './fetch-progress'
import './download.css'

type LinkState =
  | { kind: 'loading' }
  | { kind: 'ready'; file: SharedFile }
  | { kind: 'refused'; title: string; message: string; retry: boolean }

type Transfer =
  | { phase: 'idle' }
  | { phase: 'running' | 'done'; loaded: number; total: number }
  | { phase: 'failed'; message: string }

/** What the page says for a refused link or a failed request. */
export function refusal(error: unknown): Extract<LinkState, { kind: 'refused' }> {
  if (error instanceof ApiError && error.status === 410)
    return { kind: 'refused', title: DOWNLOAD_TEXT.expiredTitle, message: error.message, retry: false }
  if (error instanceof ApiError && error.status === 404) {
    const gone = error.message === STORAGE_TEXT.shareFileGone
    return {
      kind: 'refused',
      title: gone ? DOWNLOAD_TEXT.goneTitle : DOWNLOAD_TEXT.invalidTitle,
      message: error.message,
      retry: false,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { kind: 'refused', title: DOWNLOAD_TEXT.failedTitle, message, retry: true }
}

/** The type without its parameters: `text/plain; charset=utf-8` → `text/plain`. */
const shortType = (type: string) => type.split(';')[0]!.trim()

export function DownloadScreen() {
  const token = new URLSearchParams(useSearch()).get('t')
  const site = useSite()
  const [link, setLink] = useState<LinkState>(() =>
    token
      ? { kind: 'loading' }
      : { kind: 'refused', title: DOWNLOAD_TEXT.invalidTitle, message: DOWNLOAD_TEXT.missing, retry: false },
  )
  const [transfer, setTransfer] = useState<Transfer>({ phase: 'idle' })
  const [attempt, setAttempt] = useState(0)
  const abort = useRef<AbortController | null>(null)
  const headingId = useId()

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how "Try again" re-asks.
  useEffect(() => {
    if (!token) return
    let live = true
    setLink({ kind: 'loading' })
    sharedFile(token)
      .then((file) => live && setLink({ kind: 'ready', file }))
      .catch((error) => live && setLink(refusal(error)))
    return () => {
      live = false
    }
  }, [token, attempt])

  useEffect(() => () => abort.current?.abort(), [])

  useEffect(() => {
    if (link.kind === 'ready') document.title = `${link.file.name} · ${site.title}`
  }, [link, site.title])

  const start = useCallback(async () => {
    if (!token || link.kind !== 'ready') return
    abort.current?.abort()
    const controller = new AbortController()
    abort.current = controller
    const file = link.file
    setTransfer({ phase: 'running', loaded: 0, total: file.size })
    try {
      const blob = await fetchWithProgress(
        sharedBytesUrl(token),
        (loaded, total) => setTransfer({ phase: 'running', loaded, total }),
        { expectedSize: file.size, signal: controller.signal },
      )
      saveBlob(blob, file.name)
      setTransfer({ phase: 'done', loaded: blob.size, total: blob.size })
    } catch (error) {
      if (controller.signal.aborted) return
      // The link may have expired (or been withdrawn) between opening the page and pressing the button.
      if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
        setTransfer({ phase: 'idle' })
        setLink(refusal(error))
        return
      }
      setTransfer({ phase: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
  }, [token, link])

  return (
    <div className="login-page download-page">
      <section className="login-card download-card" aria-labelledby={headingId}>
        <div className="login-brand">
          {site.logo ? (
            <img src={site.logo} alt="" className="brand-logo" />
          ) : (
            <span className="brand-mark brand-mark-lg" aria-hidden="true">
              {site.title.charAt(0).toUpperCase()}
            </span>
          )}
          <span className="login-site">{site.title}</span>
        </div>

        {link.kind === 'loading' && (
          <>
            <h1 id={headingId}>{DOWNLOAD_TEXT.title}</h1>
            <p className="login-sub" role="status">
              <LoaderCircle className="spin" size={16} aria-hidden="true" /> {DOWNLOAD_TEXT.loading}
            </p>
          </>
        )}

        {link.kind === 'refused' && (
          <div className="download-refused" data-testid="download-refused">
            <h1 id={headingId}>
              <FileWarning size={22} aria-hidden="true" /> {link.title}
            </h1>
            <p className="form-error" role="alert">
              {link.message}
            </p>
            {!link.retry && <p className="login-sub">{DOWNLOAD_TEXT.askAgain}</p>}
            {link.retry && (
              <button type="button" className="button button-block" onClick={() => setAttempt((n) => n + 1)}>
                {DOWNLOAD_TEXT.retry}
              </button>
            )}
          </div>
        )}

        {link.kind === 'ready' && (
          <>
            <p className="login-sub download-kicker">{DOWNLOAD_TEXT.title}</p>
            <h1 id={headingId} className="download-name">
              {link.file.name}
            </h1>
            <dl className="download-facts">
              <div>
                <dt>Size</dt>
                <dd data-testid="download-size">{formatBytes(link.file.size)}</dd>
              </div>
              <div>
                <dt>Type</dt>
                <dd data-testid="download-type">{shortType(link.file.type)}</dd>
              </div>
              <div>
                <dt>Modified</dt>
                <dd>
                  <time dateTime={link.file.modified}>{new Date(link.file.modified).toLocaleString()}</time>
                </dd>
              </div>
            </dl>
            <TransferView transfer={transfer} />
            <button
              type="button"
              className="button button-primary button-block"
              onClick={start}
              disabled={transfer.phase === 'running'}
            >
              {transfer.phase === 'running' ? (
                <LoaderCircle className="spin" size={18} aria-hidden="true" />
              ) : (
                <Download size={18} aria-hidden="true" />
              )}
              {transfer.phase === 'running'
                ? DOWNLOAD_TEXT.downloading
                : transfer.phase === 'done'
                  ? DOWNLOAD_TEXT.again
                  : DOWNLOAD_TEXT.download}
            </button>
          </>
        )}
      </section>
    </div>
  )
}

function TransferView({ transfer }: { transfer: Transfer }) {
  if (transfer.phase === 'idle') return null
  if (transfer.phase === 'failed')
    return (
      <p className="form-error" role="alert">
        {DOWNLOAD_TEXT.failed(transfer.message)}
      </p>
    )
  const percent = transfer.total > 0 ? Math.floor((transfer.loaded / transfer.total) * 100) : 0
  return (
    <div className="download-progress">
      <progress
        value={transfer.loaded}
        max={Math.max(transfer.total, 1)}
        aria-label={DOWNLOAD_TEXT.progressLabel}
        aria-valuetext={`${percent}%`}
      />
      <p className="download-progress-text">
        <span data-testid="download-percent">{percent}%</span>
        <span>
          {formatBytes(transfer.loaded)} / {formatBytes(transfer.total)}
        </span>
      </p>
      {transfer.phase === 'done' && (
        <p role="status" className="download-done">
          {DOWNLOAD_TEXT.done}
        </p>
      )}
    </div>
  )
}
