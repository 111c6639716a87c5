import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { CHECK_KINDS } from '../../lib/checks.js'
import { EMAIL_VERIFICATION_MODES } from '../../messaging/settings.js'

const AccountSettings = Type.Object({
  email_verification: Type.Enum(EMAIL_VERIFICATION_MODES, {
    description: 'EMAIL_VERIFICATION: `code` when an address is confirmed by a code sent to it (docs/api/accounts.md › Getting back in), else `self`',
  }),
  volunteer_checks: Type.Array(Type.Enum(CHECK_KINDS), {
    description: 'VOLUNTEER_CHECKS: the kinds of check a volunteer must hold, valid, to offer help and be alerted (docs/api/accounts.md › Checks that vet volunteers); empty when none is asked',
  }),
  phone_country: Type.String({
    pattern: '^[A-Z]{2}$',
    description: 'SMS_DEFAULT_COUNTRY: the country (ISO 3166 alpha-2) whose numbers people write without a country code; the web app turns such a number into the international form before sending it (docs/web.md › Phone numbers)',
  }),
  visit_checks: Type.Enum(['off', 'on'], {
    description: 'VISIT_CHECKS: `on` when volunteers check visits in and out, so the request pages offer "I have arrived" and "My helper has left" (docs/api/visit-checks.md)',
  }),
})

interface Settings {
  emailVerification: typeof EMAIL_VERIFICATION_MODES[number]
  volunteerChecks: ReadonlyArray<typeof CHECK_KINDS[number]>
  phoneCountry: string
  visitChecks: 'off' | 'on'
}

/**
 * What the web app's account pages need to know of this deployment (beyond interface 1.0.1): whether addresses
 * are confirmed by a code, so that the profile offers "Confirm your email address" only where a code was sent;
 * which checks a volunteer needs, so that going on duty can say which are missing before an offer is refused;
 * the country of numbers typed without a country code; and whether visits are checked in and out. Public and fixed for the life of the process, like
 * /map-settings: nothing in it is secret (the checks asked of volunteers are no one's personal data).
 */
export const accountSettingsRoutes: FastifyPluginAsyncTypebox<Settings> = async (app, { emailVerification, volunteerChecks, phoneCountry, visitChecks }) => {
  const settings = { email_verification: emailVerification, volunteer_checks: [...volunteerChecks], phone_country: phoneCountry, visit_checks: visitChecks }
  app.get('/account-settings', {
    schema: { tags: ['auth'], summary: 'How accounts work here (web app): code confirmation, the checks asked of volunteers, the phone numbers\' country, visit checks', response: { 200: AccountSettings } },
    config: { auth: 'none', extension: true, usesDatabase: false },
  }, async () => settings)
}
