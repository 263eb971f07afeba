/**
 * One template (/templates/{id}, issue 13): its kind's fields in CodeMirror (HTML + Liquid, Liquid),
 * sample data as JSON, and a live preview the server renders from the unsaved draft. Save (toolbar or
 * Ctrl/Cmd+S) writes the changed fields through the outbox, so editing works offline; the preview, the
 * PDF and "Send a test to me" need the server and say so. Heading, Undo and Delete come from the
 * shared RecordScreen; Duplicate, the test send and the PDF download are this section's own buttons,
 * and a pdf template has a Save to Storage form (SavePdf.tsx).
 */
import { Copy, FileDown, Send } from 'lucide-react'
import { useMemo, useState } from 'react'
import { useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { TEMPLATE_KINDS, type TemplateKind, templateError } from '../../../shared/templates'
import { TEMPLATES_CONSOLE_TEXT } from '../../../shared/texts'
import { RecordScreen } from '../../components/RecordScreen'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import type { ScreenProps } from '../../routing/table'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { CodeField } from './CodeField'
import { PageOptions } from './PageOptions'
import { Preview } from './Preview'
import { SavePdf } from './SavePdf'
import { TemplateFields } from './TemplateFields'
import { fetchPdf, kindOf, TEMPLATES, useTemplate, useTemplates } from './template-data'
import { draftOf, formOf, patchOf, sampleOf, type TemplateForm } from './template-form'
import { sendTestToMe, testPermission } from './test-send'
import { usePreview } from './use-preview'
import '../../components/ui.css'
import '../../components/records.css'
import './templates.css'
import { onlineOnlyError } from '../../sync-ui/online-only'

export function TemplateScreen({ params }: ScreenProps) {
  const id = params.id ?? ''
  const allowed = useCan()
  usePageTitle(id)
  useBreadcrumbs([{ label: 'Templates', href: '/templates' }, id])
  if (!allowed(`templates/${id}:r`))
    return <NoAccess section={`Template ${id}`} needed={`templates/${id}:r`} />
  return <TemplatePage id={id} />
}

function TemplatePage({ id }: { id: string }) {
  const row = useTemplate(id)
  const doc = row?.doc
  const kind = (TEMPLATE_KINDS as readonly string[]).includes(kindOf(doc))
    ? (kindOf(doc) as TemplateKind)
    : 'email'
  const original = useMemo(() => formOf(doc, kind), [doc, kind])
  const edit = useEditState<TemplateForm, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const canEdit = allowed(`templates/${id}:u`)
  const reachable = useServerReachable()
  const sample = sampleOf(edit.value)
  const draft = useMemo(() => draftOf(edit.value, kind, sample), [edit.value, kind, sample])
  const problem = templateError(draft as unknown as Record<string, unknown>)
  const preview = usePreview(draft, sample ?? undefined)

  const save = async () => {
    if (!edit.modified || problem || !sample) return
    const patch = patchOf(edit.base, edit.value, kind)
    try {
      const saved = await mutate.patch(TEMPLATES, id, patch, { base: edit.baseVersion ?? undefined })
      edit.commit(formOf(saved, kind), saved)
      notifySaved(`Template ${id}`, reachable, { collection: TEMPLATES, id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || !!problem || !sample })

  // The server's line/column message goes next to the field it is about.
  const fieldErrors: Record<string, string> = {}
  if (preview.status === 'done' && !preview.ok && preview.details?.part && !preview.details.template)
    fieldErrors[preview.details.part] = preview.message

  return (
    <RecordScreen
      collection={TEMPLATES}
      id={id}
      row={row}
      edit={edit}
      noun="template"
      canEdit={canEdit}
      listHref="/templates"
      goneText={TEMPLATES_CONSOLE_TEXT.gone}
      className="template-screen"
      canDelete={allowed(`templates/${id}:d`)}
      meta={() => (
        <>
          {id} · <span className={`kind-badge kind-${kind}`}>{kind}</span>
        </>
      )}
      actions={<Actions id={id} kind={kind} form={edit.value} modified={edit.modified} />}
    >
      {() => (
        <>
          <div className="template-columns">
            <section className="panel template-editor" aria-labelledby="template-editor-heading">
              <h2 id="template-editor-heading">Template</h2>
              <TemplateFields
                kind={kind}
                form={edit.value}
                readOnly={!canEdit}
                errors={fieldErrors}
                onChange={(next) => edit.setValue(next)}
              />
              {kind === 'pdf' && (
                <PageOptions
                  form={edit.value}
                  readOnly={!canEdit}
                  modified={edit.modified}
                  onChange={(page) => edit.setValue((v) => ({ ...v, page }))}
                />
              )}
              {kind === 'pdf' && allowed('pdf:c') && (
                <SavePdf id={id} data={sample ?? undefined} modified={edit.modified} />
              )}
              <CodeField
                label="Sample data (JSON)"
                language="json"
                value={edit.value.sample}
                readOnly={!canEdit}
                onChange={(value) => edit.setValue((v) => ({ ...v, sample: value }))}
                error={sample ? null : TEMPLATES_CONSOLE_TEXT.sampleInvalid}
                hint="The data previews and tests are rendered with, e.g. {&quot;name&quot;: &quot;Ada&quot;}"
              />
              {problem && (
                <p className="field-error" role="alert">
                  {problem}
                </p>
              )}
            </section>
            <Preview state={preview} kind={kind} />
          </div>
        </>
      )}
    </RecordScreen>
  )
}

function Actions({
  id,
  kind,
  form,
  modified,
}: {
  id: string
  kind: TemplateKind
  form: TemplateForm
  modified: boolean
}) {
  const allowed = useCan()
  const online = useServerReachable()
  const mutate = useMutate()
  const { user } = useSession()
  const templates = useTemplates()
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const reachable = useServerReachable()
  const testNeeds = testPermission(kind)

  const duplicate = async () => {
    const taken = new Set(templates?.docs.map((d) => d._id))
    let copy = `${id}-copy`
    for (let n = 2; taken.has(copy); n++) copy = `${id}-copy-${n}`
    try {
      const draft = draftOf(form, kind) as unknown as Record<string, unknown>
      if (typeof draft.name === 'string') draft.name = `${draft.name} (copy)`
      await mutate.create(TEMPLATES, draft, copy)
      notifySaved(
        `Template ${copy}`,
        reachable,
        { collection: TEMPLATES, id: copy },
        TEMPLATES_CONSOLE_TEXT.duplicated(copy),
      )
      navigate(`/templates/${encodeURIComponent(copy)}`)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }

  const sendTest = async () => {
    if (!user) return
    setBusy(true)
    try {
      const test = await sendTestToMe(draftOf(form, kind), sampleOf(form) ?? undefined, user)
      // Only queued (no provider for the channel): a warning, not a green success (issue 36).
      if (test.sent) toast.success(test.text)
      else toast.warning(test.text)
    } catch (e) {
      toast.error(TEMPLATES_CONSOLE_TEXT.testNotSent(onlineOnlyError('Sending a test', e)))
    } finally {
      setBusy(false)
    }
  }

  const downloadPdf = async () => {
    setBusy(true)
    try {
      const blob = await fetchPdf(id, sampleOf(form) ?? undefined)
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `${id}.pdf`
      a.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (e) {
      toast.error(onlineOnlyError('Making a PDF', e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      {allowed(`${TEMPLATES}:c`) && (
        <button type="button" className="button button-quiet" onClick={() => void duplicate()}>
          <Copy size={16} aria-hidden="true" /> Duplicate
        </button>
      )}
      {testNeeds && allowed(testNeeds) && (
        <button
          type="button"
          className="button"
          disabled={busy || !online}
          title={online ? undefined : TEMPLATES_CONSOLE_TEXT.previewOffline}
          onClick={() => void sendTest()}
        >
          <Send size={16} aria-hidden="true" /> Send a test to me
        </button>
      )}
      {kind === 'pdf' && allowed('pdf:c') && (
        <button
          type="button"
          className="button"
          disabled={busy || !online || modified}
          title={modified ? TEMPLATES_CONSOLE_TEXT.pdfNeedsSave : undefined}
          onClick={() => void downloadPdf()}
        >
          <FileDown size={16} aria-hidden="true" /> Download PDF
        </button>
      )}
    </>
  )
}
