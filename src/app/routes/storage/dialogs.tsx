/**
 * The small forms of the file browser, each a modal <dialog> (focus trap and Escape from the browser):
 * a name (new folder, rename), a description, a share link's lifetime, and the folder picker of
 * "Move to…" / "Copy to…".
 */
import { Folder } from 'lucide-react'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { SHARE_DEFAULT_SECONDS, SHARE_EXPIRY_CHOICES } from '../../../shared/constants'
import { nameLengthProblem, type StorageRoot } from '../../../shared/storage'
import { STORAGE_BROWSER_TEXT } from '../../../shared/texts'
import '../../feedback/feedback.css'

function FormDialog({
  title,
  submitLabel,
  onSubmit,
  onClose,
  children,
  busy,
}: {
  title: string
  submitLabel: string
  onSubmit: () => void
  onClose: () => void
  children: ReactNode
  busy?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    return () => dialog?.close()
  }, [])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <dialog
      ref={ref}
      className="mc-dialog storage-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <form className="mc-dialog-body" onSubmit={submit} aria-labelledby={titleId}>
        <h2 id={titleId} className="mc-dialog-title">
          {title}
        </h2>
        {children}
        <div className="mc-dialog-actions">
          <button type="button" className="mc-button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="mc-button mc-button-primary" disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  )
}

/** Why a name is refused here, or null (the server checks again). */
export function nameProblem(name: string, taken: ReadonlySet<string>, current?: string): string | null {
  const n = name.trim()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  if (!n || n === '.' || n === '..' || /[/\\]/.test(n) || /[\u0000-\u001f]/.test(n)) {
    return STORAGE_BROWSER_TEXT.nameInvalid
  }
  const tooLong = nameLengthProblem(n)
  if (tooLong) return tooLong
  if (n !== current && taken.has(n)) return STORAGE_BROWSER_TEXT.nameTaken
  return null
}

export function NameDialog({
  title,
  label,
  submitLabel,
  initial = '',
  taken,
  onSubmit,
  onClose,
}: {
  title: string
  label: string
  submitLabel: string
  initial?: string
  taken: ReadonlySet<string>
  onSubmit: (name: string) => Promise<unknown>
  onClose: () => void
}) {
  const [name, setName] = useState(initial)
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const problem = nameProblem(name, taken, initial || undefined)
  const inputRef = useRef<HTMLInputElement>(null)
  const errorId = useId()
  useEffect(() => {
    const input = inputRef.current
    if (!input) return
    input.focus()
    // Rename: select the name without its extension, as file managers do.
    const dot = initial.lastIndexOf('.')
    input.setSelectionRange(0, dot > 0 ? dot : initial.length)
  }, [initial])
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      busy={busy}
      onClose={onClose}
      onSubmit={() => {
        setTouched(true)
        if (problem) return
        if (name.trim() === initial) return onClose()
        setBusy(true)
        void onSubmit(name.trim()).finally(() => {
          setBusy(false)
          onClose()
        })
      }}
    >
      <label className="storage-field">
        <span>{label}</span>
        <input
          ref={inputRef}
          className="input"
          value={name}
          aria-invalid={touched && !!problem}
          aria-describedby={touched && problem ? errorId : undefined}
          onChange={(e) => {
            setName(e.target.value)
            setTouched(true)
          }}
        />
      </label>
      {touched && problem && (
        <p className="field-error" id={errorId}>
          {problem}
        </p>
      )}
    </FormDialog>
  )
}

export function DescriptionDialog({
  name,
  initial,
  onSubmit,
  onClose,
}: {
  name: string
  initial: string
  onSubmit: (description: string) => Promise<unknown>
  onClose: () => void
}) {
  const [text, setText] = useState(initial)
  const [busy, setBusy] = useState(false)
  return (
    <FormDialog
      title={`Description of ${name}`}
      submitLabel="Save"
      busy={busy}
      onClose={onClose}
      onSubmit={() => {
        setBusy(true)
        void onSubmit(text).finally(() => {
          setBusy(false)
          onClose()
        })
      }}
    >
      <label className="storage-field">
        <span>Description</span>
        <textarea
          className="input"
          rows={4}
          maxLength={2000}
          value={text}
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to edit this one field.
          autoFocus
          onChange={(e) => setText(e.target.value)}
        />
      </label>
    </FormDialog>
  )
}

/** "Share photo.png": how long its link works (SHARE_EXPIRY_CHOICES), then the link is made and copied. */
export function ShareDialog({
  name,
  onSubmit,
  onClose,
}: {
  name: string
  onSubmit: (seconds: number) => Promise<unknown>
  onClose: () => void
}) {
  const [seconds, setSeconds] = useState<number>(SHARE_DEFAULT_SECONDS)
  const [busy, setBusy] = useState(false)
  return (
    <FormDialog
      title={STORAGE_BROWSER_TEXT.shareTitle(name)}
      submitLabel={STORAGE_BROWSER_TEXT.shareSubmit}
      busy={busy}
      onClose={onClose}
      onSubmit={() => {
        setBusy(true)
        void onSubmit(seconds).finally(() => {
          setBusy(false)
          onClose()
        })
      }}
    >
      <p className="muted">{STORAGE_BROWSER_TEXT.shareExplain}</p>
      <label className="storage-field">
        <span>{STORAGE_BROWSER_TEXT.shareExpiry}</span>
        <select
          className="input"
          value={seconds}
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to pick this one value.
          autoFocus
          onChange={(e) => setSeconds(Number(e.target.value))}
        >
          {SHARE_EXPIRY_CHOICES.map((c) => (
            <option key={c.seconds} value={c.seconds}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
    </FormDialog>
  )
}

/** "Move 2 items to…" / "Copy … to…": a radio list of the folders they may go to. */
export function FolderPickerDialog({
  root,
  title,
  submitLabel,
  folders,
  initial,
  onSubmit,
  onClose,
}: {
  root: StorageRoot
  title: string
  submitLabel: string
  folders: readonly string[]
  initial: string
  onSubmit: (folder: string) => Promise<unknown>
  onClose: () => void
}) {
  const [chosen, setChosen] = useState(folders.includes(initial) ? initial : (folders[0] ?? ''))
  const [filter, setFilter] = useState('')
  const [busy, setBusy] = useState(false)
  const shown = folders.filter((f) => f.toLowerCase().includes(filter.trim().toLowerCase()))
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      busy={busy || !folders.length}
      onClose={onClose}
      onSubmit={() => {
        setBusy(true)
        void onSubmit(chosen).finally(() => {
          setBusy(false)
          onClose()
        })
      }}
    >
      <label className="storage-field">
        <span>Find a folder</span>
        <input className="input" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <fieldset className="storage-picker">
        <legend className="visually-hidden">Destination folder</legend>
        {shown.map((f) => (
          <label key={f || '/'} className="check-row">
            <input
              type="radio"
              name="folder"
              value={f}
              checked={chosen === f}
              onChange={() => setChosen(f)}
            />
            <Folder size={16} aria-hidden="true" />
            <span>{f ? `/${f}` : `${STORAGE_BROWSER_TEXT.rootName[root]} (top)`}</span>
          </label>
        ))}
        {!shown.length && <p className="muted">No folder matches.</p>}
      </fieldset>
    </FormDialog>
  )
}
