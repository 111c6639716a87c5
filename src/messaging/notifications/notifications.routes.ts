import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import type { NotificationsService } from './notifications.service.js'
import { InboxQuery, MARK_READ_MESSAGES, MarkReadInput, MarkReadResult, Notification, UnreadCount } from './notifications.schemas.js'

const tags = ['notifications']

export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (app, { notifications }) => {
  app.get('/notifications', {
    schema: {
      tags,
      summary: 'Own notifications, newest first',
      description: 'Bad `limit`, `before` or `unread_only` values fall back to their defaults; never a 400.',
      querystring: InboxQuery,
      response: { 200: Type.Array(Notification), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => notifications.list(request.user, request.query))

  app.get('/notifications/unread-count', {
    schema: { tags, summary: 'How many of own notifications are unread', response: { 200: UnreadCount, ...errors(401) } },
    config: { auth: 'user', extension: true },
  }, (request) => notifications.unreadCount(request.user))

  app.post('/notifications/read', {
    schema: {
      tags,
      summary: 'Mark own unread notifications with id ≤ up_to_id read',
      body: MarkReadInput,
      response: { 200: MarkReadResult, ...errors(400, 401) },
    },
    config: { auth: 'user', extension: true, messages: MARK_READ_MESSAGES },
  }, (request) => notifications.markRead(request.user, request.body.up_to_id))
}
