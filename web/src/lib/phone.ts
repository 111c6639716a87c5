import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max'

/**
 * Phone numbers as people say them (docs/web.md › Phone numbers): "0151 12345678" is read for the deployment's
 * country (`phone_country` of GET /account-settings) and sent in E.164, which the API's pattern takes; a number
 * with its country code is read as it is. The full metadata, as the service's: the small one knows only lengths
 * and took a German mobile number with digits missing ("0151 1234"). Only the pages with a phone field load it.
 */

/** The E.164 form of a typed number, or undefined when it is no valid number (for `country`, when it has no code). */
export function readPhone (typed: string, country: string | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(typed.trim(), country as CountryCode | undefined)
  return parsed !== undefined && parsed.isValid() ? parsed.number : undefined
}

/**
 * Whether a number can take texts, by the service's own rule (src/lib/phone-numbers.ts `parsePhone`): valid, and of a
 * mobile kind (or a range that may be either). For a number as GET /users/me/phone gives it, in E.164; a number the
 * service could not read comes as it was written and is no valid number here either.
 */
export function takesTexts (phone: string): boolean {
  const parsed = parsePhoneNumberFromString(phone.trim())
  if (parsed === undefined || !parsed.isValid()) return false
  const kind = parsed.getType()
  return kind === 'MOBILE' || kind === 'FIXED_LINE_OR_MOBILE'
}
