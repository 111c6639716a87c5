import { fullFormats } from 'ajv-formats/dist/formats.js'

/** E-mail is stored and compared trimmed and in lower case (docs/api/accounts.md › Tokens). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase()

/** The longest address SMTP carries (RFC 5321's path limit less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254

/** ajv-formats' `email` form (the one the service has always checked with), as a pattern without the `i` flag. */
export const EMAIL_FORM = (fullFormats.email as RegExp).source.replace(/^\^|\$$/g, '').replaceAll('a-z', 'a-zA-Z')
const EMAIL = new RegExp(`^${EMAIL_FORM}$`)

/**
 * Whether `text` is an e-mail address the service takes: the `email` form, at most 254 characters. The
 * one check: the `email` format of every schema (lib/ajv-formats.ts) and the request bodies' pattern (http/schemas.ts) agree with it.
 */
export const isEmail = (text: string): boolean => text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text)
