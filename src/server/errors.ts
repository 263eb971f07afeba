/**
 * One error type for every refusal the API makes. The error handler in app.ts turns it into the JSON
 * body `{error, message}` of ARCHITECTURE §2 with the status of SPEC §8; `details` carries extra data
 * such as the current document on a 409.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  /** A well-formed request the server refuses to finish, e.g. a template stopped by its limits. */
  | 'unprocessable'
  | 'too_many_requests'
  | 'internal'
  | 'not_implemented'
  | 'bad_gateway'
  | 'unavailable'
  | 'gateway_timeout'
  /** The server has no room left to store what was sent (a full disk while staging an upload). */
  | 'insufficient_storage'

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  internal: 500,
  not_implemented: 501,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
  insufficient_storage: 507,
}

export class ApiError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
    this.status = STATUS[code]
  }
}

/** The JSON body of a refusal: what a route answers (app.ts) and what a batch entry holds (batch.ts). */
export function errorBody(error: ApiError): Record<string, unknown> {
  return { error: error.code, message: error.message, ...error.details }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new ApiError('bad_request', message, details)
export const notFound = (message = 'Not found') => new ApiError('not_found', message)
export const forbidden = (message: string) => new ApiError('forbidden', message)
export const unauthorized = (message: string, details?: Record<string, unknown>) =>
  new ApiError('unauthorized', message, details)
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new ApiError('conflict', message, details)
