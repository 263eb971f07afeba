/**
 * Route entries of the Transactions screens (/payments, /payments/{id}), loaded on first use: the
 * ledger and its chart (chart.js) stay out of the shell's initial JavaScript.
 */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'

const List = lazy(async () => ({ default: (await import('./TransactionsScreen')).TransactionsScreen }))
const One = lazy(async () => ({ default: (await import('./TransactionScreen')).TransactionScreen }))

export function PaymentsRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <List />
    </Suspense>
  )
}

export function TransactionRoute(props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <One {...props} />
    </Suspense>
  )
}
