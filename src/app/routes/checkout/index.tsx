/**
 * /ui/checkout?token=…&host=… (SPEC §2, no shell UI, opened as a popup): the hosted checkout, loaded
 * on first use so the console's initial JavaScript does not carry it.
 */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'

const Checkout = lazy(async () => ({ default: (await import('./CheckoutScreen')).CheckoutScreen }))

export function CheckoutRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Checkout />
    </Suspense>
  )
}
