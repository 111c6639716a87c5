/**
 * The authenticated caller and the checks made on it. It lives in lib/ because both sides need it:
 * the HTTP auth hook (src/http/auth.ts), which may not import modules/, and the services that decide
 * what a caller may do. Loading it from the database is the auth module's job (PrincipalCache).
 */
export interface Principal {
  readonly id: number
  readonly roles: readonly string[]
  readonly permissions: readonly string[]
}

export const isModerator = (user: Principal): boolean => user.roles.includes('moderator') || user.roles.includes('admin')
export const hasPermission = (user: Principal, name: string): boolean => user.permissions.includes(name)

/** Where the auth hook finds the caller of a verified token: the user when they exist and are not blocked. */
export interface PrincipalSource {
  get (userId: number): Promise<Principal | undefined>
}

/** Forgets a user's cached principal on this instance (auth/principals.ts PrincipalCache), after a change to their roles or account. */
export interface PrincipalForgetter { forget (userId: number): void }
