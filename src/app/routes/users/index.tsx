/**
 * Route entries of the Authentication screens (users, user, groups, group; API tokens are a tab of
 * /users), loaded on first use so the QR library and editors stay out of the shell's initial JavaScript.
 */
import { lazyRoute } from '../lazy-route'

export const UsersRoute = lazyRoute(async () => (await import('./UsersScreen')).UsersScreen)
export const UserRoute = lazyRoute(async () => (await import('./UserScreen')).UserScreen)
export const GroupsRoute = lazyRoute(async () => (await import('../groups/GroupsScreen')).GroupsScreen)
export const GroupRoute = lazyRoute(async () => (await import('../groups/GroupScreen')).GroupScreen)
