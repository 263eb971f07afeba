/**
 * Filling a form (/forms/{path}): the form as the server shows fillers (GET /api/forms/{id}/fill),
 * kept on this device so it opens again with no network, and sent through the submission queue
 * (src/app/forms/submission-queue.ts), which keeps answers made offline and sends them once on
 * reconnect. Logged out, a group form asks for a login; a link form just works.
 */
import { CloudOff } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { type FormDoc, formOf, visibleFields } from '../../../shared/forms'
import { countOf } from '../../../shared/plural'
import { FORMS_TEXT } from '../../../shared/texts'
import { ApiError, api } from '../../api/client'
import {
  cacheKey,
  discardSubmission,
  formsDb,
  startFormsQueue,
  submitForm,
  useQueued,
} from '../../forms/submission-queue'
import { useSession } from '../../session/use-session'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { FormFill, type SubmitResult } from './FormFill'
import { QueuedUploads } from './QueuedUploads'

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; form: FormDoc; message: string; cached: boolean }
  | { status: 'error'; message: string; login?: boolean }

function useFillable(id: string, user: string | null): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading' })
  useEffect(() => {
    let live = true
    const key = cacheKey(id, user)
    const ready = (def: Record<string, unknown>, cached: boolean) =>
      live && setState({ status: 'ready', form: formOf(def), message: String(def.message ?? ''), cached })
    api
      .request<Record<string, unknown>>(`/api/forms/${encodeURIComponent(id)}/fill`)
      .then(async (def) => {
        ready(def, false)
        await formsDb().forms.put({ key, def })
      })
      .catch(async (error) => {
        if (error instanceof ApiError) {
          if (live) setState({ status: 'error', message: error.message, login: error.status === 401 })
          if (error.status === 404 || error.status === 403) await formsDb().forms.delete(key)
          return
        }
        const cached = await formsDb().forms.get(key)
        if (cached) ready(cached.def, true)
        else if (live) setState({ status: 'error', message: FORMS_TEXT.offlineNeverOpened })
      })
    return () => {
      live = false
    }
  }, [id, user])
  return state
}

export function FillPage({ id }: { id: string }) {
  const session = useSession()
  const user = session.user?._id ?? null
  const state = useFillable(id, user)
  const title = state.status === 'ready' ? state.form.title : id
  usePageTitle(title)
  useBreadcrumbs(session.status === 'authenticated' ? [{ label: 'Forms', href: '/forms' }, title] : [title])
  useEffect(() => startFormsQueue(), [])

  if (state.status === 'loading')
    return (
      <div className="screen-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </div>
    )
  if (state.status === 'error')
    return (
      <section className="empty-state" aria-labelledby="page-heading">
        <h1 id="page-heading">{id}</h1>
        <p role="alert">{state.message}</p>
        {state.login && (
          <Link
            className="button button-primary"
            href={`/login?redirect=${encodeURIComponent(`/forms/${id}`)}`}
          >
            Log in
          </Link>
        )}
      </section>
    )
  return <Filler id={id} form={state.form} message={state.message} cached={state.cached} />
}

function Filler({
  id,
  form,
  message,
  cached,
}: {
  id: string
  form: FormDoc
  message: string
  cached: boolean
}) {
  const [done, setDone] = useState<{ text: string; queued: boolean } | null>(null)
  const [refused, setRefused] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  // The required fields shown for the answers so far: a hidden conditional one is not counted (issue 36 #13).
  const [answers, setAnswers] = useState<Record<string, unknown>>({})
  const required = visibleFields(form, answers).filter((f) => f.required).length
  const queued = useQueued(id) ?? []
  const waiting = queued.filter((q) => q.status === 'waiting')
  const rejected = queued.filter((q) => q.status === 'rejected')

  const send = async (answers: Record<string, unknown>, files: Map<string, File>): Promise<SubmitResult> => {
    setRefused(null)
    setSending(true)
    const picked = [...files].map(([field, file]) => ({ field, file }))
    const outcome = await submitForm(id, answers, picked).finally(() => setSending(false))
    if (outcome.kind === 'refused') {
      setRefused(outcome.message)
      return { reset: false, fields: outcome.fields }
    }
    setDone(
      outcome.kind === 'sent'
        ? { text: outcome.message || message, queued: false }
        : { text: FORMS_TEXT.queued, queued: true },
    )
    return { reset: true }
  }

  return (
    <section className="screen form-fill-screen" aria-labelledby="page-heading">
      <header className="screen-head">
        <h1 id="page-heading">{form.title}</h1>
        {form.description && <p className="muted">{form.description}</p>}
      </header>
      {cached && (
        <p className="notice notice-warning" role="status">
          <CloudOff size={14} aria-hidden="true" /> {FORMS_TEXT.cachedCopy}
        </p>
      )}
      {waiting.length > 0 && (
        <p className="notice form-queue-note" role="status" data-testid="form-queue">
          <CloudOff size={14} aria-hidden="true" /> {FORMS_TEXT.waiting(waiting.length)}
        </p>
      )}
      <QueuedUploads entries={waiting} />
      {rejected.map((r) => (
        <p key={r.id} className="notice notice-warning" role="alert">
          {FORMS_TEXT.rejected(r.lastError ?? '')}{' '}
          <button type="button" className="button button-small" onClick={() => void discardSubmission(r.id)}>
            Dismiss
          </button>
        </p>
      ))}
      {done ? (
        <div className="panel form-done" role="status">
          <p>{done.text}</p>
          <button type="button" className="button button-primary" onClick={() => setDone(null)}>
            Fill in again
          </button>
        </div>
      ) : (
        <div className="panel form-panel">
          {refused && (
            <p className="form-error" role="alert">
              {refused}
            </p>
          )}
          <FormFill
            form={form}
            idPrefix={`fill-${id}`}
            onSubmit={send}
            disabled={sending}
            onAnswers={setAnswers}
          />
        </div>
      )}
      <p className="muted form-fill-foot">{countOf(required, 'required field')}, marked *</p>
    </section>
  )
}
