import { Type, type Static } from 'typebox'
import { Email, Latitude, Longitude, PHONE_PATTERN } from '../../http/schemas.js'
import { Name, UserInfo } from '../users/users.schemas.js'

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
