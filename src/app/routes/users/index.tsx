/**
 * Route entries of the Users screens (list, user; API tokens are a tab of /users), loaded on first
 * use so the QR library and editors stay out of the shell's initial JavaScript.
 */
import { lazyRoute } from '../../components/lazy-route'

export const UsersRoute = lazyRoute(async () => (await import('./UsersScreen')).UsersScreen)
export const UserRoute = lazyRoute(async () => (await import('./UserScreen')).UserScreen)
