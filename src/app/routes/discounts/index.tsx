/** Discount codes (Payments): the list and one code. Products are a tab of the list, a section of their own. */
import { Tag } from 'lucide-react'
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/discounts',
      title: 'Discounts',
      auth: 'required',
      screen: 'discounts',
      load: async () => (await import('./DiscountsScreen')).DiscountsScreen,
    },
    {
      pattern: '/discounts/:id',
      title: 'Discount code',
      auth: 'required',
      screen: 'discount',
      linkedOnly: true,
      load: async () => (await import('./DiscountScreen')).DiscountScreen,
    },
  ],
  menu: [
    {
      key: 'discounts',
      title: 'Discount Codes',
      icon: Tag,
      href: '/discounts',
      needs: ['discounts:cud'],
      group: 'payments',
      order: 1,
    },
  ],
})
