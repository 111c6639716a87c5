import { Type, type Static } from 'typebox'
import { Email, Latitude, Longitude, PHONE_PATTERN } from '../../http/schemas.js'
import { Locale, Name, UserInfo } from '../users/users.schemas.js'

export const Password = Type.String({ minLength: 8, maxLength: 128 })

export const RegisterRequest = Type.Object({
  email: Email,
  password: Password,
  first_name: Name,
  last_name: Name,
  phone: Type.Optional(Type.String({ pattern: PHONE_PATTERN })),
  latitude: Type.Optional(Latitude),
  longitude: Type.Optional(Longitude),
  address: Type.Optional(Type.String({ maxLength: 500 })),
  city: Type.Optional(Type.String({ maxLength: 200 })),
  bio: Type.Optional(Type.String({ maxLength: 500 })),
  // Beyond 1.0.1: the account's first e-mail (a code, under EMAIL_VERIFICATION=code) is then in the app's language.
  locale: Type.Optional({ ...Locale, description: 'beyond 1.0.1: the language of e-mails and pushes from the start, as UserProfile.locale (default `en`)' }),
})
export type RegisterRequest = Static<typeof RegisterRequest>

export const LoginRequest = Type.Object({
  email: Email,
  // No upper bound: a longer password simply matches no account (401), like any other wrong one.
  password: Type.String({ minLength: 1 }),
})
export type LoginRequest = Static<typeof LoginRequest>

export const RefreshRequest = Type.Object({
  // No upper bound: any other string is simply not a live token (401), and the body limit caps it.
  refresh_token: Type.String({ minLength: 1 }),
})

export const AuthResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_in: Type.Integer(),
  user: UserInfo,
})
export type AuthResponse = Static<typeof AuthResponse>

export const Me = Type.Object({ id: Type.Integer(), email: Type.String({ format: 'email' }) })

// docs/api/accounts.md › Getting back in: getting back in.

/** As typed or pasted: spaces and dashes are dropped, and anything but the six digits is a wrong code (src/lib/codes.ts). */
const Code = Type.String({ maxLength: 64, description: 'the 6 digits from the e-mail' })

export const CodeRequest = Type.Object({ email: Email })
export type CodeRequest = Static<typeof CodeRequest>

// new_password before code: Ajv reports the first failing field, and a bad password must be refused before
// the code is looked at, so that the code stays usable (docs/api/accounts.md › Getting back in).
export const PasswordResetConfirm = Type.Object({ email: Email, new_password: Password, code: Code })
export type PasswordResetConfirm = Static<typeof PasswordResetConfirm>

export const CodeSignIn = Type.Object({ email: Email, code: Code })
export type CodeSignIn = Static<typeof CodeSignIn>

export const ChangePassword = Type.Object({
  // Any string: a wrong or empty one is 401 'invalid credentials', like a wrong password at login.
  current_password: Type.String(),
  new_password: Password,
})
export type ChangePassword = Static<typeof ChangePassword>

export const VerifyEmailCode = Type.Object({ code: Code })

/** Validation texts: a bad new password gets registration's texts; a code that is no code is simply wrong. */
export const CODE_MESSAGES = {
  'code:required': 'code is required',
  code: 'invalid or expired code',
  'new_password:minLength': 'password must be at least 8 characters long',
  'new_password:maxLength': 'password must be at most 128 characters long',
}
