/**
 * Transactions (Payments): the ledger and one transaction, loaded on first use so the ledger's chart
 * (chart.js) stays out of the shell's initial JavaScript.
 */
import { Receipt } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/payments',
      title: 'Payments',
      auth: 'required',
      screen: 'payments',
      load: async () => (await import('./TransactionsScreen')).TransactionsScreen,
    },
    {
      pattern: '/payments/:id',
      title: 'Transaction',
      auth: 'required',
      screen: 'transaction',
      linkedOnly: true,
      load: async () => (await import('./TransactionScreen')).TransactionScreen,
    },
  ],
  menu: [
    {
      key: 'transactions',
      title: 'Transactions',
      icon: Receipt,
      href: '/payments',
      needs: ['payments:ru'],
      group: 'payments',
      order: 2,
    },
  ],
})
