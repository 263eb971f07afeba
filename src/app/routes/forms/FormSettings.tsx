/**
 * The form's own settings: title, description, the collection answers go to, who may fill it (a
 * group, or anyone with the link, logged out too), the message after submitting and the optional
 * e-mail notification of each submission (sent through Messages). Setting the collection or the
 * notification makes the saver the form's owner and needs the rights the form then uses (formNeeds,
 * src/shared/forms.ts): the editor says so beside the field before saving.
 */
import type { FormDoc } from '../../../shared/forms'
import { RefusalNote } from '../../components/RefusalNote'
import { useRows } from '../../data/collection-rows'
import type { SaveRefusal } from '../../data/use-save-refusal'

/** The fields whose server refusals are shown beside them here (the rest: near the field list). */
export const FORM_REFUSAL_FIELDS = ['target', 'notify.email'] as const

/**
 * `errors`: why a save would be refused, by field (`target`, `notify.email`), from the session's
 * rights; `refusal`: the server's refusal of a queued save, shown beside the field it names.
 */
export function FormSettings({
  form,
  errors = {},
  refusal = null,
  onChange,
}: {
  form: FormDoc
  errors?: Record<string, string>
  refusal?: SaveRefusal | null
  onChange: (form: FormDoc) => void
}) {
  const groups = useRows('groups')
  const set = (patch: Partial<FormDoc>) => onChange({ ...form, ...patch })
  const groupIds = groups?.docs.map((g) => g._id) ?? []
  return (
    <div className="form-settings">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="form-title">Title</label>
          <input
            id="form-title"
            className="input"
            value={form.title}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="form-target">Answers go to collection</label>
          <input
            id="form-target"
            className="input mono"
            value={form.target}
            aria-invalid={errors.target ? true : undefined}
            aria-describedby={errors.target ? 'form-target-error' : undefined}
            onChange={(e) => set({ target: e.target.value.trim() })}
          />
          <FieldNote id="form-target-error" text={errors.target} />
          <RefusalNote refusal={refusal} field="target" />
        </div>
      </div>
      <div className="field">
        <label htmlFor="form-description">Description</label>
        <textarea
          id="form-description"
          className="input"
          rows={2}
          value={form.description ?? ''}
          onChange={(e) => set({ description: e.target.value || undefined })}
        />
      </div>
      <fieldset className="form-fill-choice">
        <legend>Who may fill it</legend>
        <label className="check-row">
          <input
            type="radio"
            name="form-fill"
            checked={form.fill === 'group'}
            onChange={() => set({ fill: 'group' })}
          />
          <span>Members of a group</span>
        </label>
        <label className="check-row">
          <input
            type="radio"
            name="form-fill"
            checked={form.fill === 'link'}
            onChange={() => set({ fill: 'link' })}
          />
          <span>Anyone with the link (no login)</span>
        </label>
      </fieldset>
      {form.fill === 'group' && (
        <div className="field">
          <label htmlFor="form-group">Group</label>
          <input
            id="form-group"
            className="input"
            list="form-group-ids"
            value={form.group ?? ''}
            onChange={(e) => set({ group: e.target.value.trim() || undefined })}
          />
          <datalist id="form-group-ids">
            {groupIds.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
        </div>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="form-message">Message after submitting</label>
          <input
            id="form-message"
            className="input"
            placeholder="Thank you, your answers were sent."
            value={form.message ?? ''}
            onChange={(e) => set({ message: e.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="form-notify">E-mail each submission to</label>
          <input
            id="form-notify"
            className="input"
            type="email"
            value={form.notify?.email ?? ''}
            aria-invalid={errors['notify.email'] ? true : undefined}
            aria-describedby={errors['notify.email'] ? 'form-notify-error' : undefined}
            onChange={(e) =>
              set({ notify: e.target.value.trim() ? { email: e.target.value.trim() } : undefined })
            }
          />
          <FieldNote id="form-notify-error" text={errors['notify.email']} />
          <RefusalNote refusal={refusal} field="notify.email" />
        </div>
      </div>
    </div>
  )
}

function FieldNote({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null
  return (
    <p id={id} className="field-error" role="alert" data-testid="form-needs">
      {text}
    </p>
  )
}
