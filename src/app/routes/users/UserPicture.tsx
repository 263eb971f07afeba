/**
 * The user's picture: upload with a progress bar to POST /api/users/{id}/image (multipart field
 * `file`, SPEC §7). Needs the network; the new picture shows at once here and, for one's own account,
 * in the avatar menu (the session is re-read, and the image address carries its revision).
 */
import { Upload } from 'lucide-react'
import { useRef, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { AUTH_SCREENS_TEXT } from '../../../shared/texts'
import { api } from '../../api/client'
import { toast } from '../../feedback/toast-store'
import { refreshSession } from '../../session/session'
import { Avatar } from '../../shell/Avatar'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

export function UserPicture({ doc, own, canEdit }: { doc: SyncDoc; own: boolean; canEdit: boolean }) {
  const online = useServerReachable()
  const input = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [uploaded, setUploaded] = useState<SyncDoc | null>(null)
  const [error, setError] = useState<string | null>(null)
  // The upload's answer is newer than the mirror until the change arrives through sync.
  const shown = uploaded && uploaded.imageRev !== doc.imageRev && uploaded._rev > doc._rev ? uploaded : doc

  const upload = async (file: File) => {
    setError(null)
    if (!online) return setError(AUTH_SCREENS_TEXT.needsNetwork('Uploading a picture'))
    setProgress(0)
    try {
      const res = await api.upload<SyncDoc>(`/api/users/${encodeURIComponent(doc._id)}/image`, file, {
        onProgress: (f) => setProgress(f),
      })
      setUploaded(res)
      toast.success(AUTH_SCREENS_TEXT.imageUploaded)
      if (own) await refreshSession()
    } catch (e) {
      setError(onlineOnlyError('Uploading a picture', e))
    } finally {
      setProgress(null)
      if (input.current) input.current.value = ''
    }
  }

  return (
    <section className="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Picture</h2>
      <div className="picture-row">
        <Avatar key={String(shown.imageRev)} user={shown} size={96} />
        {canEdit && (
          <div className="picture-actions">
            <label className={`button${online ? '' : ' is-disabled'}`}>
              <Upload size={16} aria-hidden="true" /> Upload a picture
              <input
                ref={input}
                type="file"
                accept="image/*"
                className="visually-hidden"
                disabled={!online || progress !== null}
                onChange={(e) => {
                  const f = e.target.files?.[0]
                  if (f) void upload(f)
                }}
              />
            </label>
            {!online && <p className="field-hint">{AUTH_SCREENS_TEXT.needsNetwork('Uploading a picture')}</p>}
          </div>
        )}
      </div>
      {progress !== null && (
        <progress className="upload-progress" max={1} value={progress} aria-label="Upload progress">
          {Math.round(progress * 100)}%
        </progress>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
