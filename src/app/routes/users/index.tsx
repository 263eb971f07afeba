/**
 * Route entries of the Authentication screens (users, user, groups, group; API tokens are a tab of
 * /users), loaded on first use so the QR library and editors stay out of the shell's initial JavaScript.
 */
import { lazy, Suspense } from 'react'
import type { ScreenProps } from '../screens'

const Users = lazy(async () => ({ default: (await import('./UsersScreen')).UsersScreen }))
const User = lazy(async () => ({ default: (await import('./UserScreen')).UserScreen }))
const Groups = lazy(async () => ({ default: (await import('../groups/GroupsScreen')).GroupsScreen }))
const Group = lazy(async () => ({ default: (await import('../groups/GroupScreen')).GroupScreen }))

function Loading() {
  return (
    <div className="splash-inline" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  )
}

const wrap = (Screen: React.ComponentType<ScreenProps>) =>
  function AuthRoute(props: ScreenProps) {
    return (
      <Suspense fallback={<Loading />}>
        <Screen {...props} />
      </Suspense>
    )
  }

export const UsersRoute = wrap(Users)
export const UserRoute = wrap(User)
export const GroupsRoute = wrap(Groups)
export const GroupRoute = wrap(Group)
