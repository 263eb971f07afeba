// Actions and the Actions console.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** Actions (issue 15, docs/operating/actions.md). */
export const ACTION_TEXT = {
  nameInvalid: 'name must be a non-empty string of at most 200 characters',
  descriptionInvalid: 'description must be a string of at most 2,000 characters',
  enabledInvalid: 'enabled must be true or false',
  codeInvalid: 'code must be a string of at most 100,000 characters',
  timeLimitInvalid: 'timeLimitMs must be a whole number from 10 to 10,000',
  memoryLimitInvalid: 'memoryLimitBytes must be a whole number from 1 MB (1048576) to 64 MB (67108864)',
  runAsInvalid: 'runAs must be a user id',
  runAsUnknown: (user: string): string => `runAs: no user '${user}'`,
  triggerInvalid: 'trigger.type must be one of CRON, EVENT, DELETE, GET, PATCH, POST, PUT',
  cronMissing: 'A CRON trigger needs trigger.cron, a cron expression',
  cronInvalid: (detail: string): string => `trigger.cron is not a valid cron expression: ${detail}`,
  timezoneInvalid: 'trigger.timezone must be an IANA time zone such as Europe/Berlin',
  eventCollectionMissing: 'An EVENT trigger needs trigger.collection',
  eventOperationsInvalid: 'trigger.operations must list one or more of create, update, delete',
  disabled: 'This action is disabled',
  wrongMethod: (method: string): string => `This action is triggered by ${method}`,
  notHttp: 'This action is not triggered over HTTP',
  inputInvalid: 'input must be JSON',
  busy: 'Too many actions are running; try again shortly',
  timeout: (ms: number): string => `The action was stopped after ${ms} ms (time limit)`,
  /** The time limit reached inside work QuickJS cannot interrupt (one long native call): the worker is stopped. */
  timeoutHard: (ms: number): string =>
    `The action was stopped at its time limit of ${ms} ms; it was inside one long operation that cannot be interrupted, so its sandbox was stopped`,
  memory: 'The action was stopped: it used more memory than its limit',
  stack: 'The action was stopped: its call stack got too deep',
  resultTooLarge: (max: number): string => `The action's result is larger than ${max} bytes`,
  resultNotJson: 'The action returned a value that is not JSON',
  killed: 'The action was stopped: its sandbox ended unexpectedly (a new one runs the next action)',
  tooManyDbCalls: 'The action made too many db calls',
  dbForbidden: (needed: string): string => `db: Requires one of: ${needed}`,
  historyQueryInvalid: (name: string): string => `The run history's ${name} parameter is not valid`,
  runsSettingInvalid:
    'action_runs must be {"keep": runs kept per action (1–100,000), "days": days a run is kept (1–3,650)}',
  eventLoop: (depth: number, cause: string): string =>
    `Stopped: this event was caused by a chain of ${depth} EVENT runs (the last: run ${cause}); an action whose writes trigger actions again is stopped at depth ${depth} so it cannot loop forever`,
  /** Completes DELEGATION_TEXT.needs ("You cannot …") for the runAs field. */
  actAsWhat: (user: string): string => `make this run as ${user}`,
  /** Completes DELEGATION_TEXT.needs for an EVENT trigger's collection. */
  watchWhat: (collection: string): string => `watch ${collection} for changes`,
  runAsCannotRead: (user: string, permission: string): string =>
    `trigger.collection: ${user}, whom this action runs as, cannot read what it watches (it needs ${permission}); their script would be passed every change`,
  budgetChainRuns: (limit: number): string =>
    `Stopped by the budget per causing change: the change that started this chain has already caused ${limit} runs (the limit)`,
  budgetChainWrites: (limit: number): string =>
    `Stopped by the budget per causing change: the runs caused by one change have made ${limit} writes (the limit)`,
  budgetMinute: (limit: number): string =>
    `Stopped by the budget per minute: this action has already run ${limit} times on changes in the last minute (the limit)`,
  budgetLog: (action: string, message: string): string =>
    `Action ${action}: ${message}. Further runs stopped by this budget are recorded in its run history only`,
  tokenGone:
    'The API token this action was saved with is revoked or expired; save the action again to run it with your rights',
  hostForbidden: (api: string, needed: string): string => `${api}: Requires one of: ${needed}`,
  pdfNeedsSave:
    'pdf: give save: {root, path}; a script cannot hold the PDF itself, so it is saved to Storage',
} as const

/**
 * The words for each SandboxError kind (server/actions/protocol.ts). 'killed' stays for runs recorded
 * before a hard stop at the time limit was recorded as 'time', and for a sandbox that crashed.
 */
const RUN_ERROR_LABELS: Record<string, string> = {
  script: 'script error',
  syntax: 'syntax error',
  time: 'time limit',
  memory: 'memory limit',
  stack: 'stack limit',
  result: 'result limit',
  killed: 'sandbox stopped',
  internal: 'server error',
  loop: 'loop stopped',
  budget: 'budget stopped',
  permission: 'permission refused',
}

function errorLabel(kind: string): string {
  return RUN_ERROR_LABELS[kind] ?? `${kind} error`
}

/** The Actions console (issue 15, docs/using/actions.md). */
export const ACTIONS_CONSOLE_TEXT = {
  gone: 'This action does not exist, or this device has not received it yet.',
  runOffline: 'Running an action needs the network: the server runs it. Your edits are kept and sent later.',
  runNeedsSave: 'Save your changes first: the server runs the saved action.',
  runNeedsSync: 'Waiting for your saved changes to reach the server…',
  inputInvalid: 'The input must be JSON, e.g. {"name": "Ada"}',
  cronWords: (words: string): string => `Runs ${words.charAt(0).toLowerCase()}${words.slice(1)}`,
  cronBad: (detail: string): string => `Not a valid cron expression: ${detail}`,
  timezoneBad: 'Not an IANA time zone such as Europe/Berlin',
  noNextRun: 'This schedule never runs again',
  operationsMissing: 'Pick at least one operation',
  disabled: 'Disabled: no trigger runs it',
  historyEmpty: 'No runs yet.',
  historyLive: 'Live: runs appear here as they finish',
  historyFallback: 'Live: runs appear here as they finish (not kept on this device offline)',
  /** What a run's error kind is called on its status and its error box ("time limit · 1003 ms"). */
  errorLabel,
  errorAt: (kind: string, line: number | undefined): string =>
    line ? `${errorLabel(kind)} at line ${line}` : errorLabel(kind),
  dryRun: 'Dry run: writes are checked, not done',
  budgetNotice: 'Its newest run was stopped by a budget, so its changes were not acted on:',
  enabledChanged: (name: string, on: boolean): string => `${name} ${on ? 'enabled' : 'disabled'}`,
} as const
