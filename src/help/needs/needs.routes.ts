import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { NEED_CODES, localeFromAcceptLanguage, needsIn } from './needs.js'

const Need = Type.Object({
  code: Type.Enum(NEED_CODES),
  name: Type.String({ description: 'The need in the caller\'s language' }),
  question: Type.String({ description: 'How the app asks the requester about it, in the caller\'s language' }),
})

/** The fixed list of needs (docs/api/help.md › Needs): public and read from code, never the database. */
export const needsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/needs', {
    schema: { tags: ['requests'], summary: 'What a request may need of its helper, in the caller\'s language', response: { 200: Type.Array(Need) } },
    config: { auth: 'none', extension: true, usesDatabase: false },
  }, async (request) => needsIn(localeFromAcceptLanguage(request.headers['accept-language'])))
}
