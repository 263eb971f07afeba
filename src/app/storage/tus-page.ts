/**
 * One upload from the page with tus-js-client (XHR, so progress events), against the tus endpoint of
 * contract C1. The upload's address is stored in the queue row as soon as the server creates it and
 * passed back as `uploadUrl` on the next run, so a reload or a cut network resumes with a HEAD at the
 * server's offset instead of sending the file again. No retries inside tus-js-client: the runner
 * decides when to try again (docs/contributing/storage.md).
 */
import { DetailedError, Upload } from 'tus-js-client'
import { bodyMessage } from '../../shared/body-message'
import { TUS_CHUNK_BYTES, TUS_PATH, UPLOAD_STALL_MS } from '../../shared/constants'
import { UI_TEXT } from '../../shared/texts'
import { type Outcome, outcomeOfStatus, type Sender } from '../../sync/files/queue-core'
import { uploadMetadata } from '../../sync/files/tus-fetch'
import type { QueueRow } from '../../sync/files/types'

export interface PageUploadHooks {
  onUrl(url: string): void
  onProgress(sent: number, total: number): void
}

export interface RunningUpload {
  done: Promise<Outcome>
  /** Stops sending (the queue deletes a cancelled upload's partial bytes itself, see cleanupCancelled). */
  abort(): Promise<void>
}

function outcomeOfError(error: Error): Outcome {
  const res = error instanceof DetailedError ? error.originalResponse : null
  if (!res) return { kind: 'wait', error: error.message }
  const status = res.getStatus()
  let body: unknown = res.getBody()
  try {
    body = typeof body === 'string' && body ? JSON.parse(body) : body
  } catch {
    // Plain text answer.
  }
  // 409/423: the offset moved under us (a creation answered an upload that already had bytes, or a
  // second sender); the next run asks for the offset again.
  if (status === 409 || status === 423) return { kind: 'wait', error: bodyMessage(status, body) }
  return outcomeOfStatus(status, bodyMessage(status, body))
}

export function startPageUpload(
  sender: Sender,
  row: QueueRow,
  blob: Blob,
  hooks: PageUploadHooks,
): RunningUpload {
  let settle!: (o: Outcome) => void
  const done = new Promise<Outcome>((resolve) => {
    settle = resolve
  })
  let lastMove = Date.now()
  let stalled = false
  const upload: Upload = new Upload(blob, {
    endpoint: `${sender.base}${TUS_PATH}`,
    uploadUrl: row.uploadUrl ?? null,
    metadata: uploadMetadata(row),
    headers: sender.token ? { authorization: `Bearer ${sender.token}` } : {},
    // One PATCH per chunk keeps each request short (the server's request time limit, proxies' body
    // limits); a cut still costs only the bytes in flight, since the server keeps what arrived.
    chunkSize: TUS_CHUNK_BYTES,
    retryDelays: [],
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: true,
    onUploadUrlAvailable: () => {
      if (upload.url) hooks.onUrl(upload.url)
    },
    onProgress: (sent, total) => {
      lastMove = Date.now()
      hooks.onProgress(sent, total)
    },
    onSuccess: ({ lastResponse }) => {
      const raw = lastResponse.getHeader('Upload-Entry')
      let entry: unknown
      try {
        entry = raw ? JSON.parse(decodeURIComponent(raw)) : undefined
      } catch {
        entry = undefined
      }
      settle({ kind: 'done', result: entry })
    },
    onError: (error) =>
      settle(stalled ? { kind: 'wait', error: UI_TEXT.requestTimedOut } : outcomeOfError(error)),
  })
  // XHR has a timeout per request, but a PATCH of a large file may rightly take an hour: what counts
  // is bytes moving. No byte for UPLOAD_STALL_MS is the SPEC's 'Request timed out'.
  const watchdog = setInterval(() => {
    if (Date.now() - lastMove < UPLOAD_STALL_MS) return
    stalled = true
    void upload.abort(false).then(() => settle({ kind: 'wait', error: UI_TEXT.requestTimedOut }))
  }, 1000)
  void done.finally(() => clearInterval(watchdog))
  upload.start()
  return {
    done,
    async abort() {
      await upload.abort(false).catch(() => undefined)
      settle({ kind: 'wait', error: 'aborted' })
    },
  }
}
