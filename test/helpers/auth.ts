import assert from 'node:assert/strict'
import { uniqueEmail } from './app.js'

// What the tests of registering, signing in and refreshing share.

export const PASSWORD = 'correct horse battery'

export function registration (fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: uniqueEmail('auth'), password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace', ...fields }
}

export function assertAuthResponse (body: any, email: string): void {
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'user'])
  assert.match(body.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
  assert.match(body.refresh_token, /^[\w-]{43}$/, '256 random bits, base64url')
  assert.equal(body.expires_in, 900)
  assert.deepEqual(Object.keys(body.user).sort(), ['email', 'email_verified', 'first_name', 'id', 'last_name'])
  assert.equal(body.user.email, email)
  assert.equal(typeof body.user.id, 'number')
}
