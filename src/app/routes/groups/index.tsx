/** Route entries of the Groups screens (list, group), loaded on first use. */
import { lazyRoute } from '../../components/lazy-route'

export const GroupsRoute = lazyRoute(async () => (await import('./GroupsScreen')).GroupsScreen)
export const GroupRoute = lazyRoute(async () => (await import('./GroupScreen')).GroupScreen)
