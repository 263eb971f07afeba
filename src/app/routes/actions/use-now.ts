/** Moved to src/app/hooks/use-now.ts (the Transactions list uses it too). */
export { useNow } from '../../hooks/use-now'
