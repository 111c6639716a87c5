import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import type { DeliveriesService } from './deliveries.service.js'
import { Delivery, NotificationSettings, NotificationSettingsInput, SETTINGS_MESSAGES, Unsubscribed, UnsubscribeQuery } from './deliveries.schemas.js'

const tags = ['deliveries']

export const deliveriesRoutes: FastifyPluginAsyncTypebox<{ deliveries: DeliveriesService }> = async (app, { deliveries }) => {
  app.get('/users/me/notification-settings', {
    schema: {
      tags,
      summary: 'Own channels, types and quiet hours (docs/api/messaging.md)',
      description: 'Reach.md\'s defaults until the person changes something. Account e-mails (codes, password changed) are no type: they are always sent.',
      response: { 200: NotificationSettings, ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => deliveries.notificationSettings(request.user))

  app.put('/users/me/notification-settings', {
    schema: {
      tags,
      summary: 'Change own channels, types and quiet hours',
      description: 'Every field optional; what is given replaces what was. `quiet_hours: null` removes them; `time_zone: null` follows the deployment\'s TIME_ZONE again.',
      body: NotificationSettingsInput,
      response: { 200: NotificationSettings, ...errors(400, 401) },
    },
    config: { auth: 'user', extension: true, messages: SETTINGS_MESSAGES },
  }, (request) => deliveries.updateNotificationSettings(request.user, request.body))

  app.get('/users/me/deliveries', {
    schema: {
      tags,
      summary: 'Own recent e-mail and push deliveries, newest first',
      querystring: PageQuery,
      response: { 200: Type.Array(Delivery), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => deliveries.deliveries(request.user, parsePage(request.query)))

  // RFC 8058: mail programs POST a form body (`List-Unsubscribe=One-Click`); any body, of any size and
  // content type (a malformed one included), is drained unread, in this route's own scope so that every
  // other route keeps taking JSON only.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addHook('onRequest', async (request) => {
      if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream'
    })
    scope.addContentTypeParser('*', (_request, payload, done) => {
      payload.on('error', () => { done(null, undefined) })
      payload.on('end', () => { done(null, undefined) })
      payload.resume()
    })
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/unsubscribe', {
      schema: {
        tags,
        summary: 'One-click unsubscribe from one type of e-mail (RFC 8058), no sign-in',
        description: 'The token of an e-mail\'s `List-Unsubscribe` header names the person and type, is signed and never expires. Any body, of any type, is ignored.',
        querystring: UnsubscribeQuery,
        response: { 200: Unsubscribed, ...errors(400) },
      },
      config: { auth: 'none', extension: true, messages: { token: 'invalid token' } },
    }, async (request) => {
      await deliveries.unsubscribe(request.query.token)
      return { message: 'unsubscribed' as const }
    })
  })
}
