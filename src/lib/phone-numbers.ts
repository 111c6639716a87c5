/**
 * Phone numbers for texts: the interface's phone pattern decides what is accepted as input; this turns an
 * accepted number into E.164 and says whether it can take texts (docs/api/messaging.md › Texts). The full
 * metadata is needed because only it knows which ranges of a country are mobile.
 */
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max'
import { PHONE_PATTERN } from './values.js'

const ACCEPTED = new RegExp(PHONE_PATTERN)

export interface ParsedPhone {
  /** The number in E.164 (`+4915112345678`), or null when it is not a valid number for its country. */
  e164: string | null
  /** True when the number is valid and of a kind that takes texts (mobile, or a range that may be either). */
  mobile: boolean
}

/** Parses `input` (as stored on a profile or client); a number without `+` belongs to `defaultCountry`. */
export function parsePhone (input: string, defaultCountry: string): ParsedPhone {
  const trimmed = input.trim()
  if (!ACCEPTED.test(trimmed)) return { e164: null, mobile: false }
  // The pattern refuses a leading 0, so a number without `+` is national without its trunk prefix
  // (`15112345678` in DE); a country code written without its plus would be read as part of that number.
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry as CountryCode)
  if (parsed === undefined || !parsed.isValid()) return { e164: null, mobile: false }
  const kind = parsed.getType()
  return { e164: parsed.number, mobile: kind === 'MOBILE' || kind === 'FIXED_LINE_OR_MOBILE' }
}

/** The E.164 form of `input`, or null when it is not a valid number: how incoming senders are matched. */
export function toE164 (input: string, defaultCountry: string): string | null {
  return parsePhone(input, defaultCountry).e164
}

/**
 * Every way a profile may hold the number `e164` (the phone pattern allows no spaces): as E.164, and, when it is
 * of the default country's calling code, as the national number without its trunk prefix, which parsePhone reads
 * as that country's. How an incoming text's sender is matched to the numbers people confirmed.
 */
export function storedFormsOf (e164: string, defaultCountry: string): string[] {
  const parsed = parsePhoneNumberFromString(e164)
  if (parsed === undefined) return [e164]
  const national = parsed.countryCallingCode === getCountryCallingCode(defaultCountry as CountryCode) ? [String(parsed.nationalNumber)] : []
  return [e164, ...national]
}

/** Whether `code` is an ISO 3166 alpha-2 country the library knows: how `SMS_DEFAULT_COUNTRY` is checked. */
export { isSupportedCountry } from 'libphonenumber-js/max'
