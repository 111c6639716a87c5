import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min'

/**
 * Phone numbers as people say them (docs/web.md › Phone numbers): "0151 12345678" is read for the deployment's
 * country (`phone_country` of GET /account-settings) and sent in E.164, which the API's pattern takes; a number
 * with its country code is read as it is.
 */

/** The E.164 form of a typed number, or undefined when it is no valid number (for `country`, when it has no code). */
export function readPhone (typed: string, country: string | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(typed.trim(), country as CountryCode | undefined)
  return parsed !== undefined && parsed.isValid() ? parsed.number : undefined
}
