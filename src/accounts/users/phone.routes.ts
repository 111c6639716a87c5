import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { CODE_MESSAGES, VerifyEmailCode } from '../auth/auth.schemas.js'
import type { PhoneService } from './phone.service.js'

const tags = ['users']

const PhoneStatus = Type.Object({
  phone: Type.Union([Type.String(), Type.Null()], { description: 'the profile\'s phone in E.164 (as written when it is no valid number); null when there is none' }),
  verified: Type.Boolean({ description: 'confirmed by the code texted to it; changing the profile\'s phone makes it unconfirmed again' }),
  stopped: Type.Boolean({ description: 'the number replied STOP: it gets no texts at all until it replies START' }),
  can_receive_texts: Type.Boolean({ description: 'a mobile number, confirmed and not stopped' }),
})
const PhoneConfirmed = Type.Object({ phone: Type.String(), verified: Type.Literal(true) })
const CodeTexted = Type.Object({ message: Type.Literal('we have sent a code to your phone') })

/** docs/api/messaging.md › Texts: confirming the profile's phone for texts by a code texted to it. */
export const phoneRoutes: FastifyPluginAsyncTypebox<{ phone: PhoneService }> = async (app, { phone }) => {
  app.get('/users/me/phone', {
    schema: { tags, summary: 'Whether own phone can get texts', response: { 200: PhoneStatus, ...errors(401, 404) } },
    config: { auth: 'user', extension: true },
  }, (request) => phone.status(request.user))

  app.post('/users/me/phone/verify', {
    schema: {
      tags,
      summary: 'Text a code to own phone to confirm it',
      description: 'The code (6 digits, 30 minutes, single use, five wrong tries) goes by text to the profile\'s phone; asking again voids ' +
        'the earlier code. Counts against login\'s rate limits and the number\'s daily texts.',
      response: { 202: CodeTexted, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true },
  }, async (request, reply) => {
    await phone.sendCode(request.user)
    return reply.code(202).send({ message: 'we have sent a code to your phone' as const })
  })

  app.post('/users/me/phone/verify/confirm', {
    schema: {
      tags,
      summary: 'Confirm own phone with the code texted to it',
      body: VerifyEmailCode,
      response: { 200: PhoneConfirmed, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: CODE_MESSAGES },
  }, (request) => phone.confirm(request.user, request.body.code))
}
