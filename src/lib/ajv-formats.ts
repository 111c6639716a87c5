import type { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { isEmail } from './email.js'
import { isCalendarDate, isDateTimeInYears, isTimeZone } from './values.js'

/** ajv-formats' plugin with its real type: the package is CommonJS with a default export, which ESM sees as the module object. */
const addStandardFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
const dateTime = fullFormats['date-time'] as { validate: (text: string) => boolean }

/**
 * ajv-formats' formats, with the service's own checks (lib/values.ts, lib/email.ts) for dates, e-mail
 * addresses and time zones (`time-zone`). One place, so the API's validators, the configuration's and
 * the tests' agree.
 */
export function addFormats (ajv: Ajv): Ajv {
  return addStandardFormats(ajv)
    .addFormat('date', isCalendarDate)
    .addFormat('date-time', (text: string) => dateTime.validate(text) && isDateTimeInYears(text))
    .addFormat('email', isEmail)
    .addFormat('time-zone', isTimeZone)
}
