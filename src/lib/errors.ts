/**
 * An answer to the client: its status and the `{"error": text}` it gets, and any headers it needs
 * (a 429's `Retry-After`). Thrown by services.
 */
export class AppError extends Error {
  constructor (readonly status: number, readonly text: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(text)
    this.name = 'AppError'
  }
}

export const badRequest = (text: string): AppError => new AppError(400, text)
export const unauthorized = (text: string = UNAUTHORIZED): AppError => new AppError(401, text)
export const forbidden = (text: string): AppError => new AppError(403, text)
export const notFound = (text: string): AppError => new AppError(404, text)

/** Throws `error`: for `??` after a lookup that must find something (`await find() ?? fail(notFound(...))`). */
export function fail (error: Error): never {
  throw error
}

// Texts used in more than one place; one-off texts stay at their throw site, where grep finds them.
export const UNAUTHORIZED = 'unauthorized'
export const INVALID_BODY = 'invalid request body'
export const USER_NOT_FOUND = 'user not found'
export const REQUEST_NOT_FOUND = 'request not found'
export const ADMIN_ROLE_REQUIRED = 'admin role required'
export const MODERATOR_ROLE_REQUIRED = 'moderator role required'
