/**
 * SPEC §6 "Menu visibility by permission key": which permission each sidebar entry needs. Each value is
 * a list of requirements of which any one suffices, checked with the shared matcher (`can`), so a
 * requirement without letters (`actions`) means any method and `discounts:cud` means c, u or d.
 * Kept in src/shared beside the matcher so the server's group editor preview can use the same table.
 */
export const MENU_PERMISSIONS = {
  assistant: ['ai'],
  actions: ['actions'],
  analytics: ['analytics'],
  analyticsPages: ['analytics'],
  analyticsUsers: ['analytics'],
  /** SPEC: "groups and users: Authentication and its two children"; each child needs its own key. */
  authentication: ['groups', 'users'],
  groups: ['groups'],
  users: ['users'],
  /** SPEC: "data and forms: Data and its children"; each child needs its own key. */
  data: ['data', 'forms'],
  database: ['data'],
  forms: ['forms'],
  messages: ['messages'],
  /** SPEC gives logs:r for the Payments parent (as for Logs); kept exactly, see docs/decisions/shell.md. */
  payments: ['logs:r'],
  discounts: ['discounts:cud'],
  transactions: ['payments:ru'],
  storage: ['storage'],
  templates: ['templates'],
  webServer: ['static'],
  logs: ['logs:r'],
  clientLogs: ['logs:r'],
  serverLogs: ['logs/server:r'],
  settings: ['settings:u'],
} as const satisfies Record<string, readonly string[]>

export type MenuKey = keyof typeof MENU_PERMISSIONS
