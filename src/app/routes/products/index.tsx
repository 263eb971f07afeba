/** Route entries of the Products screens (issue 14; reached from the Discount codes tabs). */
export { ProductScreen as ProductRoute } from './ProductScreen'
export { ProductsScreen as ProductsRoute } from './ProductsScreen'
