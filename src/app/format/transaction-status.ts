/** A transaction's status in words, wherever one is shown (Payments, a product's test checkout). */
import type { TransactionStatus } from '../../shared/payments'

export const STATUS_LABEL: Record<TransactionStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
}
