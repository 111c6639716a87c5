import { setTimeout as sleep } from 'node:timers/promises'
import type { Database, Transaction } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import type { CodePurpose } from '../../lib/codes.js'
import { normaliseEmail } from '../../lib/email.js'
import { badRequest, notFound, unauthorized } from '../../lib/errors.js'
import { hashPassword, verifyPassword, type ScryptParams } from '../../lib/passwords.js'
import type { Principal } from '../../lib/principal.js'
import * as users from '../users/users.repo.js'
import * as authRepo from './auth.repo.js'
import type { AuthResponse, ChangePassword, CodeSignIn, PasswordResetConfirm } from './auth.schemas.js'
import { ACCOUNT_BLOCKED, type AuthService } from './auth.service.js'
import { NO_ACCOUNT, type AccountCodes } from './codes.js'

export const INVALID_CODE = 'invalid or expired code'
export const CODE_SENT = 'if that address has an account, we have sent it a code'
const INVALID_CREDENTIALS = 'invalid credentials'

/**
 * Asking for a code, and trying one, answer no sooner than this after the call came. Storing a code and its
 * e-mail is a write transaction, a few milliseconds slower than finding no account (about 5 ms on both engines);
 * a wrong try at a live code writes its count where an address without one touches no row (under a millisecond
 * on PostgreSQL, whose commit then flushes). The floor hides both unless the database is slower than it.
 */
const ANSWER_FLOOR_MS = 100
export const CODES_OFF = 'email verification by code is off'

export interface RecoverySettings {
  scrypt: ScryptParams
  emailVerification: 'self' | 'code'
}

/** What a step that uses a code does once the code was right: the account's own changes, in the code's transaction. */
type WithAccount = (tx: Transaction, change: Change, user: users.CredentialsRow) => Promise<void>

/**
 * Getting back in (docs/api/accounts.md › Getting back in): password reset, sign-in by code, changing the password, and confirming the
 * address by a code. Every code is made and used by AccountCodes in the transaction of the change it allows;
 * its e-mail is the account_message event, which the deliveries module turns into an outbox row.
 */
export class RecoveryService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly codes: AccountCodes,
    private readonly auth: AuthService,
    private readonly settings: RecoverySettings
  ) {}

  /**
   * POST /auth/password-reset and /auth/code: a code when the address has an account, and the same answer,
   * after about the same work, when it has none (the code is made, hashed and sealed, and a transaction
   * looks for a code row, as a real send writes one), both no sooner than ANSWER_FLOOR_MS.
   */
  async sendCode (email: string, purpose: 'password_reset' | 'sign_in'): Promise<void> {
    const answerAt = performance.now() + ANSWER_FLOOR_MS
    const user = await users.findCredentials(this.db, normaliseEmail(email))
    if (user === undefined) {
      this.codes.sendNowhere()
      await this.changes.run(null, (tx, change) => authRepo.lockCode(tx, NO_ACCOUNT, purpose, change.at))
    } else {
      await this.changes.run(null, (tx, change) => this.codes.send(tx, change, user.id, purpose))
    }
    await sleep(Math.max(0, answerAt - performance.now()))
  }

  /** POST /auth/password-reset/confirm: the new password, every refresh token revoked, then signed in. */
  async resetPassword (input: PasswordResetConfirm): Promise<AuthResponse> {
    // Hashed before the transaction: PGlite has one connection, and a transaction holds it.
    const passwordHash = await hashPassword(input.new_password, this.settings.scrypt)
    return await this.#withCode(input.email, 'password_reset', input.code, async (tx, change, user) => {
      await users.updatePasswordHash(tx, user.id, passwordHash)
      await authRepo.revokeRefreshTokens(tx, user.id, 'password')
      change.record({ type: 'account_message', userId: user.id, message: 'password_changed', sealedCode: null })
    })
  }

  /** POST /auth/code/confirm: signed in with no password. */
  async signInWithCode (input: CodeSignIn): Promise<AuthResponse> {
    return await this.#withCode(input.email, 'sign_in', input.code, async () => {})
  }

  /** POST /users/me/password: the caller stays signed in with a new pair; every earlier refresh token is revoked. */
  async changePassword (caller: Principal, input: ChangePassword): Promise<AuthResponse> {
    const stored = await users.findPasswordHash(this.db, caller.id)
    const valid = stored !== undefined && input.current_password !== '' && await verifyPassword(input.current_password, stored.password_hash)
    if (!valid) throw unauthorized(INVALID_CREDENTIALS)
    const passwordHash = await hashPassword(input.new_password, this.settings.scrypt)
    const outcome = await this.changes.run(caller.id, async (tx, change) => {
      // Of two changes racing with one current password, the second finds the hash changed: as if it were wrong.
      if (!await users.updatePasswordHash(tx, caller.id, passwordHash, stored.password_hash)) return undefined
      await authRepo.revokeRefreshTokens(tx, caller.id, 'password')
      change.record({ type: 'account_message', userId: caller.id, message: 'password_changed', sealedCode: null })
      const user = await users.findUserInfo(tx, caller.id)
      return user === undefined ? undefined : await this.auth.issue(tx, user)
    })
    if (outcome === undefined) throw unauthorized(INVALID_CREDENTIALS)
    return outcome
  }

  /**
   * POST /users/me/verify-email under EMAIL_VERIFICATION=code. An address already confirmed (by an earlier
   * code, a reset or a sign-in by code) answers as confirmed whatever the code: pressing the button twice
   * is no error.
   */
  async verifyEmail (caller: Principal, code: string): Promise<void> {
    const confirmed = await this.changes.run(caller.id, async (tx, change) => {
      const user = await users.findUserInfo(tx, caller.id)
      if (user === undefined) return false
      if (user.email_verified) return true
      if (!await this.codes.use(tx, caller.id, 'verify_email', code, change.at)) return false
      await this.#confirmAddress(tx, change, caller.id)
      return true
    })
    if (!confirmed) throw badRequest(INVALID_CODE)
  }

  /** POST /users/me/verify-email/resend: a new code, unless the address is already confirmed (false: nothing sent). */
  async resendVerification (caller: Principal): Promise<boolean> {
    if (this.settings.emailVerification !== 'code') throw notFound(CODES_OFF)
    return await this.changes.run(caller.id, async (tx, change) => {
      const user = await users.findUserInfo(tx, caller.id)
      if (user === undefined || user.email_verified) return false
      await this.codes.send(tx, change, caller.id, 'verify_email')
      return true
    })
  }

  /**
   * Uses the code of `purpose`; when right and the account is not blocked, runs `then`, confirms the address
   * (the code came through it) and signs in, all in one transaction. A wrong try commits too, so it counts.
   * Every answer, right or wrong, with or without an account, comes no sooner than ANSWER_FLOOR_MS.
   */
  async #withCode (email: string, purpose: CodePurpose, code: string, then: WithAccount): Promise<AuthResponse> {
    const answerAt = performance.now() + ANSWER_FLOOR_MS
    try {
      return await this.#tryCode(email, purpose, code, then)
    } finally {
      await sleep(Math.max(0, answerAt - performance.now()))
    }
  }

  async #tryCode (email: string, purpose: CodePurpose, code: string, then: WithAccount): Promise<AuthResponse> {
    const outcome = await this.changes.run(null, async (tx, change) => {
      const user = await users.findCredentials(tx, normaliseEmail(email))
      // An address without an account tries its code too, with the same statements: its answer comes no sooner.
      const right = await this.codes.use(tx, user?.id ?? NO_ACCOUNT, purpose, code, change.at)
      if (user === undefined || !right) return INVALID_CODE
      // As at login: whether the account is blocked is told only to someone who proved they hold it.
      if (user.is_blocked) return ACCOUNT_BLOCKED
      await then(tx, change, user)
      await this.#confirmAddress(tx, change, user.id)
      return await this.auth.issue(tx, { ...user, email_verified: true })
    })
    if (outcome === INVALID_CODE) throw badRequest(INVALID_CODE)
    if (outcome === ACCOUNT_BLOCKED) throw unauthorized(ACCOUNT_BLOCKED)
    return outcome
  }

  /** Marks the address confirmed; the first time, the person is told by e-mail ('email_verified'). */
  async #confirmAddress (tx: Transaction, change: Change, userId: number): Promise<void> {
    if (await users.markEmailVerified(tx, userId)) {
      change.record({ type: 'account_message', userId, message: 'email_verified', sealedCode: null })
    }
  }
}
