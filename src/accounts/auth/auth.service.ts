import type { ScryptParams } from '../../lib/passwords.js'
import { sqlState, constraintName, type Database, type Queryable } from '../../db/database.js'
import { UNIQUE_VIOLATION } from '../../db/sqlstate.js'
import type { Changes } from '../../events/dispatcher.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { normaliseEmail } from '../../lib/email.js'
import { badRequest, unauthorized } from '../../lib/errors.js'
import { decoyHash, hashPassword, verifyPassword } from '../../lib/passwords.js'
import { hashRefreshToken, newRefreshToken, type AccessTokens } from '../../lib/tokens.js'
import { grantRole, VOLUNTEER_ROLE_ID } from '../roles/roles.repo.js'
import * as users from '../users/users.repo.js'
import * as refresh from './auth.repo.js'
import type { AccountCodes } from './codes.js'
import type { AuthResponse, LoginRequest, RegisterRequest } from './auth.schemas.js'

const INVALID_CREDENTIALS = 'invalid email or password'
const INVALID_REFRESH_TOKEN = 'invalid refresh token'
export const ACCOUNT_BLOCKED = 'account is blocked'

export interface AuthSettings {
  scrypt: ScryptParams
  /** How long a registration may wait for a hashing thread (a sign-in twice as long): docs/api/accounts.md › A burst of sign-ups. */
  passwordQueueMs: number
  refreshTokenTtlDays: number
  /** docs/api/accounts.md › Getting back in: 'code' sends a code to confirm the address at registration. */
  emailVerification: 'self' | 'code'
}

export class AuthService {
  #decoy: Promise<string> | undefined

  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly codes: AccountCodes,
    private readonly tokens: AccessTokens,
    private readonly settings: AuthSettings,
    /** Judges refresh tokens' expiry (access tokens have the same clock in `tokens`). */
    private readonly clock: Clock = systemClock
  ) {}

  async register (input: RegisterRequest): Promise<AuthResponse> {
    if ((input.latitude === undefined) !== (input.longitude === undefined)) {
      throw badRequest('latitude and longitude must be given together')
    }
    // Hash before the transaction: PGlite has one connection, and a transaction holds it.
    const passwordHash = await hashPassword(input.password, this.settings.scrypt, { maxWaitMs: this.settings.passwordQueueMs })
    try {
      return await this.changes.run(null, async (tx, change) => {
        const user = await users.insertUser(tx, { ...input, email: normaliseEmail(input.email), password_hash: passwordHash })
        await grantRole(tx, user.id, VOLUNTEER_ROLE_ID, null)
        if (this.settings.emailVerification === 'code') await this.codes.send(tx, change, user.id, 'verify_email')
        return await this.issue(tx, user)
      })
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION && constraintName(error) === 'users_email_key') {
        throw badRequest('email already registered')
      }
      throw error
    }
  }

  async login (input: LoginRequest): Promise<AuthResponse> {
    const user = await users.findCredentials(this.db, normaliseEmail(input.email))
    // An unknown e-mail costs one hash too, so response time does not tell who has an account.
    const valid = await verifyPassword(input.password, user?.password_hash ?? await this.#decoyHash(), { maxWaitMs: 2 * this.settings.passwordQueueMs })
    if (user === undefined || !valid) throw unauthorized(INVALID_CREDENTIALS)
    if (user.is_blocked) throw unauthorized(ACCOUNT_BLOCKED)
    return await this.issue(this.db, user)
  }

  /** Single use: the presented token is rotated; presenting a rotated one again revokes them all. */
  async refresh (token: string): Promise<AuthResponse> {
    const tokenHash = hashRefreshToken(token)
    const outcome = await this.db.transaction(async (tx) => {
      const user = await refresh.rotateRefreshToken(tx, tokenHash, this.clock.now())
      if (user === undefined) {
        const known = await refresh.findRefreshToken(tx, tokenHash)
        // Reuse of a rotated token means two parties hold it: end every session of that user.
        if (known?.revoked_reason === 'rotated') await refresh.revokeRefreshTokens(tx, known.user_id, 'reuse')
        // Blocking revoked the token; the holder learns why rather than a bare 'invalid'.
        return known?.is_blocked === true ? ACCOUNT_BLOCKED : INVALID_REFRESH_TOKEN
      }
      if (user.is_blocked) return ACCOUNT_BLOCKED
      return await this.issue(tx, user)
    })
    if (typeof outcome === 'string') throw unauthorized(outcome)
    return outcome
  }

  async me (userId: number): Promise<{ id: number, email: string }> {
    const user = await users.findUserInfo(this.db, userId)
    // The token was valid a moment ago; a user gone since then is simply no longer authenticated.
    if (user === undefined) throw unauthorized()
    return { id: user.id, email: user.email }
  }

  /** Every session of the person ends (POST /auth/logout, and "sign out everywhere" in the web app). */
  async logout (userId: number): Promise<void> {
    await refresh.revokeRefreshTokens(this.db, userId, 'logout')
  }

  /** Only this device's session ends: the refresh token its cookie holds, when it holds one. */
  async logoutDevice (userId: number, token: string | undefined): Promise<void> {
    if (token !== undefined && token !== '') await refresh.revokeRefreshToken(this.db, userId, hashRefreshToken(token), 'logout')
  }

  /** A new token pair for `user` (its refresh token stored through `db`): signing in, by any way. */
  async issue (db: Queryable, user: users.UserInfoRow): Promise<AuthResponse> {
    const refreshToken = newRefreshToken()
    await refresh.insertRefreshToken(db, user.id, hashRefreshToken(refreshToken), this.settings.refreshTokenTtlDays, this.clock.now())
    return {
      access_token: this.tokens.sign(user.id),
      refresh_token: refreshToken,
      expires_in: this.tokens.ttlSeconds,
      user: { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name, email_verified: user.email_verified },
    }
  }

  #decoyHash (): Promise<string> {
    this.#decoy ??= decoyHash(this.settings.scrypt)
    return this.#decoy
  }
}
