// Delegated authority (issue 35, docs/operating/security.md "Delegated authority"): the refusals of the one rule
// that whatever the server does for someone is bounded by that someone's rights, read when it acts.
// One definition of each text; src/shared/texts.ts re-exports this file.

export const DELEGATION_TEXT = {
  /** Saving something the server will do on the saver's behalf that needs a right the saver lacks. */
  needs: (what: string, permission: string): string =>
    `You cannot ${what}: it needs the permission ${permission}, which you do not have`,
  /** Saving something that will act as another user, who holds rights the saver lacks. */
  actAs: (user: string, missing: readonly string[]): string =>
    `You cannot make this run as ${user}: they hold permissions you do not have (${missing.join(', ')})`,
  /** Granting a group permissions the editor does not hold. */
  grantBeyondOwn: (missing: readonly string[]): string =>
    `You cannot grant permissions you do not have: ${missing.join(', ')}`,
  /** At the time of acting: the person the act is for no longer holds the right. */
  principalLacks: (user: string, permission: string): string =>
    `${user} no longer has the permission ${permission} this needs`,
} as const
