import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../requests/requests.schemas.js'
import { ApproveInput, COMMENT_REQUIRED, ModerationAction, ModerationItem, ModerationResult, ModerationStatus, RejectInput } from './moderation.schemas.js'
import type { ModerationService } from './moderation.service.js'

const tags = ['moderation']

export const moderationRoutes: FastifyPluginAsyncTypebox<{ moderation: ModerationService }> = async (app, { moderation }) => {
  app.get('/moderation/requests/pending', {
    schema: {
      tags,
      summary: 'The moderation queue: most urgent first (urgent, high, medium, low), then oldest first',
      description: 'Requests in pending_moderation, except the caller\'s own (nobody moderates their own request).',
      querystring: PageQuery,
      response: { 200: Type.Array(ModerationItem), ...errors(401, 403, 500) },
    },
    config: { auth: 'mod', failure: 'failed to get pending requests' },
  }, (request) => moderation.pending(request.user, parsePage(request.query)))

  app.get('/moderation/requests/my', {
    schema: {
      tags,
      summary: 'Requests the caller approved or rejected, most recently moderated first',
      description: 'Each with its status as it is now.',
      querystring: PageQuery,
      response: { 200: Type.Array(ModerationItem), ...errors(401, 403, 500) },
    },
    config: { auth: 'mod', failure: 'failed to get moderated requests' },
  }, (request) => moderation.moderatedBy(request.user, parsePage(request.query)))

  app.post('/moderation/requests/:id/approve', {
    schema: {
      tags,
      summary: 'Approve a pending request',
      description: 'The body is a JSON object, `{}` at the least; an empty body is refused.',
      params: RequestIdParams,
      body: ApproveInput,
      response: { 200: ModerationStatus, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', messages: REQUEST_ID_MESSAGES },
  }, async (request) => ({ status: await moderation.decide(request.user, request.params.id, 'approve', request.body.comment) }))

  app.post('/moderation/requests/:id/reject', {
    schema: {
      tags,
      summary: 'Reject a pending request, with the reason',
      params: RequestIdParams,
      body: RejectInput,
      response: { 200: ModerationStatus, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', messages: { ...REQUEST_ID_MESSAGES, comment: COMMENT_REQUIRED } },
  }, async (request) => ({ status: await moderation.decide(request.user, request.params.id, 'reject', request.body.comment) }))

  app.post('/moderation/requests/:id/moderate', {
    schema: {
      tags,
      summary: 'Approve or reject in one operation',
      params: RequestIdParams,
      body: ModerationAction,
      response: { 200: ModerationResult, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', messages: { ...REQUEST_ID_MESSAGES, action: 'action must be \'approve\' or \'reject\'' } },
  }, async (request) => {
    const status = await moderation.decide(request.user, request.params.id, request.body.action, request.body.comment)
    return { success: true, message: `request ${status}` }
  })
}
