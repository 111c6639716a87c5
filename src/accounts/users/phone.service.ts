import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { badRequest, notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import { parsePhone } from '../../lib/phone-numbers.js'
import type { Principal } from '../../lib/principal.js'
import { isStopped } from '../../messaging/sms/sms.repo.js'
import type { AccountCodes } from '../auth/codes.js'
import * as users from './users.repo.js'

/** As the e-mail codes' (docs/api/accounts.md › Getting back in). */
const INVALID_CODE = 'invalid or expired code'
export const NO_PHONE = 'no phone number'
export const NOT_MOBILE = 'not a mobile number'
export const TEXTS_STOPPED = 'texts are stopped for this number: reply START first'

export interface PhoneStatus {
  phone: string | null
  verified: boolean
  stopped: boolean
  can_receive_texts: boolean
}

/**
 * Which of a person's numbers may get texts (docs/api/messaging.md › Texts): the profile's phone, once
 * confirmed by a code texted to it (the code rules of docs/api/accounts.md › Getting back in, through
 * AccountCodes: 6 digits, 30 minutes, single use, five wrong tries), and not stopped by a STOP reply.
 */
export class PhoneService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly codes: AccountCodes,
    private readonly defaultCountry: string
  ) {}

  /** GET /users/me/phone: the number in E.164 when it parses (else as written), and what it can get. */
  async status (caller: Principal): Promise<PhoneStatus> {
    const row = await users.findPhone(this.db, caller.id) ?? fail()
    if (row.phone === null) return { phone: null, verified: false, stopped: false, can_receive_texts: false }
    const parsed = parsePhone(row.phone, this.defaultCountry)
    const stopped = parsed.e164 !== null && await isStopped(this.db, parsed.e164)
    return { phone: parsed.e164 ?? row.phone, verified: row.verified, stopped, can_receive_texts: parsed.mobile && row.verified && !stopped }
  }

  /** POST /users/me/phone/verify: a new code texted to the profile's phone, voiding any earlier one. */
  async sendCode (caller: Principal): Promise<void> {
    await this.#textable(caller)
    await this.changes.run(caller.id, async (tx, change) => {
      await this.codes.send(tx, change, caller.id, 'verify_phone')
    })
  }

  /**
   * POST /users/me/phone/verify/confirm. A wrong try commits (it counts toward the five); a stopped number
   * is refused before the code is looked at, so the code is not spent.
   */
  async confirm (caller: Principal, code: string): Promise<{ phone: string, verified: true }> {
    const { phone, e164 } = await this.#textable(caller, INVALID_CODE)
    const confirmed = await this.changes.run(caller.id, async (tx, change) => {
      if (!await this.codes.use(tx, caller.id, 'verify_phone', code, change.at)) return false
      // The code was sent to the phone the profile holds now: changing it voids the code (users.repo.ts).
      return await users.markPhoneVerified(tx, caller.id, phone, change.at)
    })
    if (!confirmed) throw badRequest(INVALID_CODE)
    return { phone: e164, verified: true }
  }

  /** The profile's phone when it can take texts; else the answer for why not (`invalid`: when there is none or it is not mobile). */
  async #textable (caller: Principal, invalid?: string): Promise<{ phone: string, e164: string }> {
    const row = await users.findPhone(this.db, caller.id) ?? fail()
    if (row.phone === null) throw badRequest(invalid ?? NO_PHONE)
    const parsed = parsePhone(row.phone, this.defaultCountry)
    if (parsed.e164 === null || !parsed.mobile) throw badRequest(invalid ?? NOT_MOBILE)
    if (await isStopped(this.db, parsed.e164)) throw badRequest(TEXTS_STOPPED)
    return { phone: row.phone, e164: parsed.e164 }
  }
}

function fail (): never {
  throw notFound(USER_NOT_FOUND)
}
