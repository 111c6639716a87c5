import type { Queryable } from '../../db/database.js'
import type { Change } from '../../events/dispatcher.js'
import type { AccountMessage } from '../../events/notifications.js'
import { CODE_MAX_WRONG_TRIES, CODE_TTL_MS, codeHasherFor, newCode, normaliseCode, type CodeHasher, type CodePurpose } from '../../lib/codes.js'
import { sealerFor, type Sealer } from '../../lib/sealing.js'
import * as codes from './auth.repo.js'

/** The user id no account has: a try for an address without one runs the same statements with it, and finds no row. */
export const NO_ACCOUNT = 0

const MESSAGE_OF: Record<CodePurpose, AccountMessage> = {
  password_reset: 'password_reset_code',
  sign_in: 'sign_in_code',
  verify_email: 'verify_email_code',
  verify_phone: 'verify_phone_code',
}

/**
 * The codes of docs/api/accounts.md › Getting back in: made, stored as a keyed hash, and handed to the e-mail outbox sealed, all
 * in the caller's transaction, so a code is never stored without its e-mail nor e-mailed without being
 * stored. Used (and voided) under a row lock, in the caller's transaction too.
 */
export class AccountCodes {
  readonly #hasher: CodeHasher
  readonly #sealer: Sealer
  /** What a try is compared with when no code is live: a hash that matches no typed code. */
  readonly #decoy: string

  constructor (signingSecret: string) {
    this.#hasher = codeHasherFor(signingSecret)
    this.#sealer = sealerFor(signingSecret)
    this.#decoy = this.#hasher.hash(NO_ACCOUNT, 'sign_in', newCode())
  }

  /** A new code for `userId`, replacing any earlier one of `purpose`, and its e-mail (the account_message event). */
  async send (tx: Queryable, change: Change, userId: number, purpose: CodePurpose): Promise<void> {
    const code = newCode()
    await codes.replaceCode(tx, userId, purpose, this.#hasher.hash(userId, purpose, code), change.at, new Date(change.at.getTime() + CODE_TTL_MS))
    change.record({ type: 'account_message', userId, message: MESSAGE_OF[purpose], sealedCode: this.#sealer.seal(code) })
  }

  /**
   * What sending costs besides the database, for an address with no account, so that asking answers
   * in about the same time either way (the hash and the seal are thrown away).
   */
  sendNowhere (): void {
    this.#sealer.seal(this.#hasher.hash(0, 'sign_in', newCode()))
  }

  /**
   * Whether `typed` is the live code of `purpose`; a right one is used up. A wrong one counts, and the
   * fifth wrong try voids the code; an expired one is deleted. Commit the transaction whatever the
   * answer, or the count is lost. Every try costs the same work, whether or not a code is live and
   * whether or not `userId` is an account (NO_ACCOUNT): one lock, one comparison, one write (which
   * touches no row when there is no code), so the time of a wrong answer does not tell them apart.
   */
  async use (tx: Queryable, userId: number, purpose: CodePurpose, typed: string, now: Date): Promise<boolean> {
    const live = await codes.lockCode(tx, userId, purpose, now)
    const matches = this.#hasher.matches(live?.code_hash ?? this.#decoy, userId, purpose, normaliseCode(typed))
    if (live === undefined) {
      await codes.countWrongTry(tx, userId, purpose)
      return false
    }
    const right = matches && !live.expired
    if (right || live.expired || live.failed_tries + 1 >= CODE_MAX_WRONG_TRIES) await codes.deleteCode(tx, userId, purpose)
    else await codes.countWrongTry(tx, userId, purpose)
    return right
  }
}
