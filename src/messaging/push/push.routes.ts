import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import {
  CreatedSubscription, NEW_SUBSCRIPTION_MESSAGES, NewSubscriptionInput, PublicKey, PushSubscription, SUBSCRIPTION_PARAM_MESSAGES, SubscriptionParams,
} from './push.schemas.js'
import type { PushService } from './push.service.js'

// Under 'users': the devices are the caller's, like the rest of /users/me.
const tags = ['users']

/** docs/api/messaging.md › Web Push: the service's public key and the caller's devices. */
export const pushRoutes: FastifyPluginAsyncTypebox<{ push: PushService }> = async (app, { push }) => {
  app.get('/push/public-key', {
    schema: {
      tags,
      summary: 'The VAPID public key a browser subscribes with',
      description: 'No sign-in. 404 `push is not configured` when push is off (DATABASE_URL without VAPID_*).',
      response: { 200: PublicKey, ...errors(404) },
    },
    config: { auth: 'none', extension: true, usesDatabase: false },
  }, () => push.publicKey())

  app.post('/users/me/push-subscriptions', {
    schema: {
      tags,
      summary: 'Allow alerts on this device: store the browser\'s push subscription',
      description: 'The body is `PushSubscription.toJSON()`. The same endpoint again replaces its row, whoever sent it (201 as well). ' +
        'At most 10 per person: the oldest is dropped. 404 `push is not configured` when push is off.',
      body: NewSubscriptionInput,
      response: { 201: CreatedSubscription, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: NEW_SUBSCRIPTION_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await push.subscribe(request.user, request.body)))

  app.get('/users/me/push-subscriptions', {
    schema: {
      tags,
      summary: 'The caller\'s push subscriptions, newest first',
      description: 'Each device by its push service\'s host; the full endpoint is never shown.',
      response: { 200: Type.Array(PushSubscription), ...errors(401, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get push subscriptions' },
  }, (request) => push.list(request.user))

  app.delete('/users/me/push-subscriptions/:id', {
    schema: {
      tags,
      summary: 'Stop alerts on a device',
      params: SubscriptionParams,
      response: { 204: Type.Null({ description: 'Removed (no body)' }), ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: SUBSCRIPTION_PARAM_MESSAGES },
  }, async (request, reply) => {
    await push.unsubscribe(request.user, request.params.id)
    return reply.code(204).send(null)
  })
}
