/** Route entries of the Discount codes screens (issue 14). */
export { DiscountScreen as DiscountRoute } from './DiscountScreen'
export { DiscountsScreen as DiscountsRoute } from './DiscountsScreen'
