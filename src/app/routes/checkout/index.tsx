/** The hosted checkout popup (no shell, no login: it talks to the server with its checkout token). */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/checkout',
      title: 'Checkout',
      screen: 'checkout',
      chrome: 'bare',
      load: async () => (await import('./CheckoutScreen')).CheckoutScreen,
    },
  ],
})
