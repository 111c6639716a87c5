import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { ActingFor, INVITATION_ID_MESSAGES, InvitationIdParams, INVITE_MESSAGES, InviteInput, TrustedPerson } from './carers.schemas.js'
import type { CarersService } from './carers.service.js'

const tags = ['users']

/** docs/api/on-behalf.md › Carers: the person's trusted people, and the people the caller was asked to help. */
export const carersRoutes: FastifyPluginAsyncTypebox<{ carers: CarersService }> = async (app, { carers }) => {
  app.post('/users/me/trusted-people', {
    schema: {
      tags,
      summary: 'Invite someone you trust to act for you',
      description: 'The same answer whether or not the address has an account; an account is notified (`trust_invitation`). ' +
        '`follow` is always granted. Inviting an address again changes that invitation\'s `can` (a declined one is invited again).',
      body: InviteInput,
      response: { 201: TrustedPerson, ...errors(400, 401) },
    },
    config: { auth: 'user', extension: true, messages: INVITE_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await carers.invite(request.user, request.body)))

  app.get('/users/me/trusted-people', {
    schema: {
      tags,
      summary: 'The people the caller invited to act for them, newest first',
      response: { 200: Type.Array(TrustedPerson), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => carers.listTrusted(request.user))

  app.delete('/users/me/trusted-people/:id', {
    schema: {
      tags,
      summary: 'Stop an invitation or a carer\'s grant, at once',
      params: InvitationIdParams,
      response: { 204: Type.Null({ description: 'Revoked (no body)' }), ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: INVITATION_ID_MESSAGES },
  }, async (request, reply) => {
    await carers.revoke(request.user, request.params.id)
    return reply.code(204).send(null)
  })

  app.get('/users/me/acting-for', {
    schema: {
      tags,
      summary: 'The people who invited the caller to act for them (invited and accepted), newest first',
      response: { 200: Type.Array(ActingFor), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => carers.listActingFor(request.user))

  for (const [action, status] of [['accept', 'accepted'], ['decline', 'declined']] as const) {
    app.post(`/users/me/acting-for/:id/${action}`, {
      schema: {
        tags,
        summary: action === 'accept' ? 'Accept an invitation to act for someone' : 'Decline an invitation, or stop acting for someone',
        description: action === 'accept'
          ? 'Nothing is allowed before this. Accepting an accepted invitation changes nothing. No body.'
          : 'Also after accepting: the grant ends at once, and the invitation leaves the list. No body.',
        params: InvitationIdParams,
        response: { 200: ActingFor, ...errors(400, 401, 404) },
      },
      config: { auth: 'user', extension: true, messages: INVITATION_ID_MESSAGES },
    }, (request) => carers.decide(request.user, request.params.id, status))
  }
}
