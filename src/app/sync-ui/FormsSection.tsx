/**
 * The Sync panel's Form submissions section: the forms queue (src/app/forms/submission-queue.ts) of
 * this viewer, beside the outbox and the uploads: which form, how long it has waited, and why (waiting
 * for the network, for its files, or refused with the server's reason). The form's page dismisses a
 * refused one; the queue sends the others by itself.
 */
import { Link } from 'wouter'
import { FORM_FILES_TEXT, FORMS_SYNC_TEXT } from '../../shared/texts'
import { type QueuedSubmission, useQueuedSubmissions } from '../forms/forms-db'
import { formatAge } from './age'
import { syncPanel } from './panel-store'

function reason(s: QueuedSubmission): string {
  if (s.status === 'rejected') return FORMS_SYNC_TEXT.refused(s.lastError ?? '')
  if (s.lastError) return s.lastError
  return s.uploads?.length ? FORM_FILES_TEXT.waitsForFiles : FORMS_SYNC_TEXT.waiting
}

export function FormsSection({ user, now }: { user: string | null; now: number }) {
  const entries = useQueuedSubmissions(user)
  return (
    <section aria-label={FORMS_SYNC_TEXT.title} data-testid="sync-forms">
      <h3>
        {FORMS_SYNC_TEXT.title} ({entries.length})
      </h3>
      {entries.length === 0 ? (
        <p className="muted">{FORMS_SYNC_TEXT.empty}</p>
      ) : (
        <ul className="mc-sync-inbox">
          {entries.map((s) => (
            <li key={s.id} data-status={s.status}>
              <div>
                <Link href={`/forms/${s.form}`} onClick={() => syncPanel.close()}>
                  <strong>{s.form}</strong>
                </Link>{' '}
                <span className="muted" title={s.createdAt}>
                  {formatAge(s.createdAt, now)}
                </span>
                <div className="muted">{reason(s)}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
