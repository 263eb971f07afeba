/** Products as a catalogue section (catalog/catalog-kind.ts): the server makes the id. */
import type { CatalogKind } from '../../components/catalog/catalog-kind'
import { ProductFields } from './ProductFields'
import { type ProductForm, productFields, productFormOf } from './product-form'

export const PRODUCTS: CatalogKind<ProductForm> = {
  collection: 'products',
  noun: ['product', 'products'],
  title: 'Products',
  label: 'Product',
  listHref: '/products',
  formOf: productFormOf,
  fieldsOf: productFields,
  Fields: ProductFields,
  savedName: (id, fields) => (typeof fields.name === 'string' ? fields.name : id),
}
