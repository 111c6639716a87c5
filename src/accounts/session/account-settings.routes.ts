import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { EMAIL_VERIFICATION_MODES } from '../../messaging/settings.js'

const AccountSettings = Type.Object({
  email_verification: Type.Enum(EMAIL_VERIFICATION_MODES, {
    description: 'EMAIL_VERIFICATION: `code` when an address is confirmed by a code sent to it (docs/api/accounts.md › Getting back in), else `self`',
  }),
})

/**
 * What the web app's account pages need to know of this deployment (beyond interface 1.0.1): whether addresses
 * are confirmed by a code, so that the profile offers "Confirm your email address" only where a code was sent.
 * Public and fixed for the life of the process, like /map-settings: nothing in it is secret.
 */
export const accountSettingsRoutes: FastifyPluginAsyncTypebox<{ emailVerification: typeof EMAIL_VERIFICATION_MODES[number] }> = async (app, { emailVerification }) => {
  const settings = { email_verification: emailVerification }
  app.get('/account-settings', {
    schema: { tags: ['auth'], summary: 'How accounts work here (web app): whether addresses are confirmed by a code', response: { 200: AccountSettings } },
    config: { auth: 'none', extension: true, usesDatabase: false },
  }, async () => settings)
}
