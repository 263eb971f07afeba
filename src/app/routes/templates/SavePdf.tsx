/**
 * "Save to Storage" for a pdf template (docs/using/templates.md): the saved template rendered with
 * its sample data into a Storage file (POST /api/pdf with `save`, docs/operating/pdf.md). The path defaults to
 * `pdf/{id}-{{TIMESTAMP}}.pdf`, stamped when saving (SPEC §9, stampFileName), so repeated saves do not
 * replace each other. The server renders the PDF, so it needs the network and says so offline.
 */
import { HardDriveUpload } from 'lucide-react'
import { useState } from 'react'
import { stampFileName } from '../../../shared/storage'
import { TEMPLATES_CONSOLE_TEXT } from '../../../shared/texts'
import { toast } from '../../feedback/toast-store'
import { browserHref } from '../../storage/entries'
import { onlineOnlyError } from '../../sync-ui/online-only'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { savePdfToStorage } from './template-data'

export function SavePdf(props: { id: string; data: Record<string, unknown> | undefined; modified: boolean }) {
  const online = useServerReachable()
  const [path, setPath] = useState(`pdf/${props.id}-{{TIMESTAMP}}.pdf`)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const save = async () => {
    setError(null)
    const target = stampFileName(path.trim().replace(/^\/+/, ''))
    if (!target) return setError(TEMPLATES_CONSOLE_TEXT.pdfPathMissing)
    setBusy(true)
    try {
      const entry = await savePdfToStorage(props.id, props.data, target)
      toast.success(TEMPLATES_CONSOLE_TEXT.pdfSaved(entry.path), undefined, {
        href: browserHref('storage', entry.path),
        label: 'Open in Storage',
      })
    } catch (e) {
      setError(onlineOnlyError('Saving the PDF', e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <fieldset className="page-options save-pdf">
      <legend>Save to Storage</legend>
      <div className="field">
        <label htmlFor="save-pdf-path">Path in Storage</label>
        <input
          id="save-pdf-path"
          className="input"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          spellCheck={false}
        />
        <p className="field-hint">
          {'{{TIMESTAMP}}'} becomes the date and time of the save. Missing folders are created.
        </p>
      </div>
      {!online && (
        <p className="field-hint" role="note">
          {TEMPLATES_CONSOLE_TEXT.pdfSaveOffline}
        </p>
      )}
      {props.modified && <p className="field-hint">{TEMPLATES_CONSOLE_TEXT.pdfNeedsSave}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button"
        disabled={busy || !online || props.modified}
        onClick={() => void save()}
      >
        <HardDriveUpload size={16} aria-hidden="true" /> {busy ? 'Saving…' : 'Save to Storage'}
      </button>
    </fieldset>
  )
}
