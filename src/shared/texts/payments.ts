// Payments, the hosted checkout and the Transactions screen.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** Payments (issue 14): the server's refusals and the checkout's words; docs/decisions/payments.md. */
export const PAYMENT_TEXT = {
  productNameInvalid: 'A product name is text of 1 to 200 characters',
  priceInvalid: 'price must be a whole number of minor units (cents), 0 or more',
  currencyInvalid: 'currency must be a three-letter ISO 4217 code such as EUR',
  stockInvalid: 'stock must be a whole number, 0 or more, or null for unlimited',
  activeInvalid: 'active must be true or false',
  fieldInvalid: (field: string): string => `${field} must be a string`,
  discountKind: 'A discount code has either a percent or an amount, not both',
  percentInvalid: 'percent must be a whole number from 1 to 100',
  amountInvalid: 'amount must be a whole number of minor units (cents), more than 0',
  dateInvalid: (field: string): string => `${field} must be a date such as 2027-12-31`,
  windowInverted:
    'The end date (expires) is before the start date (starts): a code cannot end before it starts',
  codeUsedUpAtPay: (code: string): string =>
    `The discount code ${code} was used up while this checkout was open; remove it to pay the full price`,
  maxUsesInvalid: 'maxUses must be a whole number, 1 or more, or null for unlimited',
  productsInvalid: 'products must be a list of product ids',
  transactionWrite:
    'Transactions are written by the payment routes only (init, the checkout, notify, refund)',
  productUnavailable: (id: string): string => `Product ${id} is not for sale`,
  outOfStock: (id: string): string => `Product ${id} is out of stock`,
  quantityInvalid: (max: number): string => `quantity must be a whole number from 1 to ${max}`,
  codeUnknown: (code: string): string => `The discount code ${code} is not valid`,
  codeUsedUp: (code: string): string => `The discount code ${code} has been used up`,
  codeNotApplicable: (code: string): string => `The discount code ${code} does not apply to this order`,
  customerInvalid: 'customer must be an object with an optional email and name',
  checkoutTokenInvalid: 'This checkout link is not valid',
  checkoutExpired: 'This checkout has expired; start again from the shop',
  checkoutClosed: 'This checkout is already paid',
  cardMissing: 'Enter a card number',
  testCardOnly: 'TEST mode: only test card numbers such as 4242 4242 4242 4242 are accepted',
  cardDeclined: 'Your card was declined',
  insufficientFunds: 'Your card has insufficient funds',
  providerUnavailable: 'The payment provider could not be reached; try again',
  unknownProvider: (id: string): string => `No payment provider ${id} is configured`,
  signatureInvalid: 'Webhook signature verification failed',
  refundAmountInvalid: 'amount must be a whole number of minor units (cents), more than 0',
  refundTooLarge: (left: string): string => `A refund cannot exceed what is left of the payment (${left})`,
  refundFailed: 'The payment provider refused the refund',
  initRateLimited: (seconds: number): string =>
    `Too many checkouts started from here; try again in ${seconds} s`,
  testBanner:
    'TEST MODE: no money moves; use card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline)',
} as const

/** The hosted checkout page's own words (/ui/checkout, docs/operating/payments.md); its errors to the opener are UI_TEXT's. */
export const CHECKOUT_TEXT = {
  title: 'Checkout',
  loading: 'Loading your order…',
  missing: 'This checkout link is incomplete: it needs a token and the host that opened it',
  badHost: 'This checkout was opened with an invalid host, so its result could not be returned',
  item: 'Item',
  quantity: 'Qty',
  amount: 'Amount',
  subtotal: 'Subtotal',
  discount: (code: string): string => `Discount (${code})`,
  total: 'Total',
  codeLabel: 'Discount code',
  apply: 'Apply',
  removeCode: 'Remove code',
  cardLabel: 'Card number',
  testBadge: 'TEST',
  testCards: (ok: string, declined: string): string => `Test cards: ${ok} pays, ${declined} is declined`,
  pay: (total: string): string => `Pay ${total}`,
  paying: 'Paying…',
  paid: 'Payment complete',
  done: 'You can close this window.',
  close: 'Close',
  alreadyPaid: 'This order is already paid.',
  stripeNoKey:
    'This shop has not finished setting up card payments (the Stripe publishable key is missing); try again later',
  stripeLoadFailed: 'The card form could not be loaded; check your connection and reload this page',
  stripeCardLabel: 'Card',
  stripeSecure: 'Your card details go straight to Stripe; this shop never sees them.',
  processing: 'Your payment is being processed; this page will not take another card for it',
} as const

/** The console's Transactions screen and Test checkout (docs/using/payments.md). */
export const TRANSACTIONS_TEXT = {
  refundNeedsNetwork:
    'A refund needs a connection to the server and is never queued. You are offline: try again when you are back online.',
  refundTitle: 'Refund this payment?',
  refundText: (amount: string, who: string): string =>
    `Refund ${amount} to ${who}? The money goes back through the payment provider; this cannot be undone.`,
  refundButton: (amount: string): string => `Refund ${amount}`,
  refunded: (amount: string): string => `Refunded ${amount}`,
  refundAmountInvalid: (left: string): string => `Enter an amount more than 0 and at most ${left}`,
  nothingToRefund: 'Nothing is left to refund on this payment.',
  testCheckout: 'Test checkout',
  testCheckoutDone: (status: string, total: string): string => `Test checkout ${status}: ${total}`,
  testCheckoutDraft: 'A product needs a price and must be active before it can be sold',
} as const
