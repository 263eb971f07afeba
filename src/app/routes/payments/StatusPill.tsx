/** A transaction's status as a pill, with TEST beside it when no money moved (the TEST provider). */
import type { SyncDoc } from '../../../db/types'
import { STATUS_LABEL } from '../../format/transaction-status'
import { statusOf } from './transaction-view'

const TONE: Record<string, string> = {
  paid: 'pill pill-on',
  partially_refunded: 'pill pill-warn',
  refunded: 'pill',
  failed: 'pill pill-bad',
  pending: 'pill',
}

export function StatusPill({ doc }: { doc: SyncDoc }) {
  const status = statusOf(doc)
  return (
    <span className="status-cell">
      <span className={TONE[status]} data-status={status}>
        {STATUS_LABEL[status]}
      </span>
      {doc.test === true && <span className="pill pill-test">TEST</span>}
    </span>
  )
}
