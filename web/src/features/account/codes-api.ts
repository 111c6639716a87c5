import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { CSRF_HEADERS, startSession } from '../../api/session'

/**
 * The calls of getting back in (docs/api/accounts.md › Getting back in). Asking for a code goes to /auth/* (nothing to keep); every call
 * that signs in or changes the password goes to the session twin (src/accounts/session/session-codes.routes.ts),
 * which puts the new refresh token in the session cookie rather than in page script's reach.
 *
 * These paths are called through a loosely typed view of the client while web/src/api/schema.d.ts does not
 * describe them yet (docs/api/accounts.md › Getting back in); `npm run web:api-types` then types them.
 */
type Answer = Parameters<typeof startSession>[0]
interface FetchResult { data?: unknown, error?: unknown, response: Response }
interface LooseClient {
  POST: (path: string, init: { body?: unknown, params?: { header?: Record<string, string> } }) => Promise<FetchResult>
  PATCH: (path: string, init: { body?: unknown }) => Promise<FetchResult>
}
const loose = api as unknown as LooseClient

const withCsrf = { header: CSRF_HEADERS }

export const askResetCode = async (email: string): Promise<void> => { await unwrap(loose.POST('/api/v1/auth/password-reset', { body: { email } })) }
export const askSignInCode = async (email: string): Promise<void> => { await unwrap(loose.POST('/api/v1/auth/code', { body: { email } })) }

export async function confirmReset (body: { email: string, code: string, new_password: string }): Promise<Answer> {
  return await unwrap(loose.POST('/api/v1/session/password-reset/confirm', { body, params: withCsrf })) as Answer
}

export async function confirmSignInCode (body: { email: string, code: string }): Promise<Answer> {
  return await unwrap(loose.POST('/api/v1/session/code/confirm', { body, params: withCsrf })) as Answer
}

export async function changePassword (body: { current_password: string, new_password: string }): Promise<Answer> {
  return await unwrap(loose.POST('/api/v1/session/password', { body, params: withCsrf })) as Answer
}

export const verifyEmail = async (code: string): Promise<void> => { await unwrap(loose.POST('/api/v1/users/me/verify-email', { body: { code } })) }
export const resendVerification = async (): Promise<void> => { await unwrap(loose.POST('/api/v1/users/me/verify-email/resend', {})) }

/** Confirming the profile's phone for texts (docs/api/messaging.md › Texts): a code texted to it, then that code. */
export const sendPhoneCode = async (): Promise<void> => { await unwrap(api.POST('/api/v1/users/me/phone/verify', {})) }
export const confirmPhoneCode = async (code: string): Promise<void> => { await unwrap(api.POST('/api/v1/users/me/phone/verify/confirm', { body: { code } })) }

/** The code as people type or paste it: "123 456" and "123-456" are the same six digits. */
export const normaliseCode = (typed: string): string => typed.replace(/[\s-]/g, '')
const CODE_PATTERN = /^\d{6}$/

/** What is wrong with a typed code, already normalised, as the key of its error text; undefined when nothing is. */
export function codeProblem (typed: string): 'codes.errors.codeRequired' | 'codes.errors.codeFormat' | undefined {
  if (CODE_PATTERN.test(typed)) return undefined
  return typed === '' ? 'codes.errors.codeRequired' : 'codes.errors.codeFormat'
}
