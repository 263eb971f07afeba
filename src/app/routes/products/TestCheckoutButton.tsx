/**
 * "Test checkout" on a product: opens the hosted checkout popup for it from the console, exactly as a
 * shop page would (src/app/api/checkout-popup.ts: the popup is opened inside the click, then init
 * prices it on the server), so a shop owner can try a product, a discount code and the TEST card
 * before selling. The result the popup posts back is shown with a link to the transaction; the
 * SPEC §8 errors (blocked popup, unknown answer) are shown as the helper words them.
 */
import { CreditCard } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'wouter'
import { formatMoney } from '../../../shared/money'
import { TRANSACTIONS_TEXT } from '../../../shared/texts'
import { type CheckoutResult, openCheckout } from '../../api/checkout-popup'
import { toast } from '../../feedback/toast-store'
import { STATUS_LABEL } from '../../format/transaction-status'
import { useServerReachable } from '../../sync-ui/use-server-reachable'

export function TestCheckoutButton({ product }: { product: string }) {
  const reachable = useServerReachable()
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<CheckoutResult | null>(null)

  const start = () => {
    setResult(null)
    setBusy(true)
    // Called synchronously in the click: browsers allow window.open only there.
    openCheckout(product)
      .then(setResult)
      .catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false))
  }

  return (
    <>
      <button
        type="button"
        className="button"
        disabled={!reachable || busy}
        title={reachable ? undefined : 'Checkout needs a connection to the server'}
        onClick={start}
      >
        <CreditCard size={16} aria-hidden="true" /> {busy ? 'Checkout open…' : TRANSACTIONS_TEXT.testCheckout}
      </button>
      {result && (
        <p className="notice test-checkout-result" role="status">
          {TRANSACTIONS_TEXT.testCheckoutDone(
            STATUS_LABEL[result.status].toLowerCase(),
            formatMoney(result.total, result.currency),
          )}{' '}
          <Link href={`/payments/${encodeURIComponent(result.transaction)}`}>View transaction</Link>
        </p>
      )}
    </>
  )
}
