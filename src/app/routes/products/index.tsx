/** Products (a tab of Discount Codes, docs/using/payments.md): the list and one product. */
import { defineSection } from '../../routing/section'

export const section = defineSection({
  routes: [
    {
      pattern: '/products',
      title: 'Products',
      auth: 'required',
      screen: 'products',
      linkedOnly: true,
      load: async () => (await import('./ProductsScreen')).ProductsScreen,
    },
    {
      pattern: '/products/:id',
      title: 'Product',
      auth: 'required',
      screen: 'product',
      linkedOnly: true,
      load: async () => (await import('./ProductScreen')).ProductScreen,
    },
  ],
})
