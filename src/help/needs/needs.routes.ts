import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Principal } from '../../lib/principal.js'
import { NEED_CODES, localeFromAcceptLanguage, needsIn, type NeedsLocale } from './needs.js'

const Need = Type.Object({
  code: Type.Enum(NEED_CODES),
  name: Type.String({ description: 'The need in the caller\'s language' }),
  question: Type.String({ description: 'How the app asks the requester about it, in the caller\'s language' }),
})

/** The fixed list of needs (docs/api/visits.md › Needs and matching): public and read from code; only a signed-in caller's locale is read. */
export const needsRoutes: FastifyPluginAsyncTypebox<{ locales: { localeOf: (userId: number) => Promise<NeedsLocale | undefined> } }> = async (app, { locales }) => {
  app.get('/needs', {
    schema: {
      tags: ['requests'],
      summary: 'What a request may need of its helper, in the caller\'s language',
      description: 'Public. The language: a signed-in caller\'s profile `locale` (with a bearer token), else Accept-Language, else en.',
      response: { 200: Type.Array(Need) },
    },
    config: { auth: 'optional', extension: true },
  }, async (request) => {
    // request.user is null without a (valid) token: then the header decides (docs/api/visits.md › Needs and matching).
    const user = request.user as Principal | null
    const locale = user === null ? undefined : await locales.localeOf(user.id)
    return needsIn(locale ?? localeFromAcceptLanguage(request.headers['accept-language']))
  })
}
