import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { ApproveInput, COMMENT_REQUIRED, RejectInput } from '../../help/moderation/moderation.schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../../help/requests/requests.schemas.js'
import { CreateSeriesInput, MY_SERIES_MESSAGES, MySeriesQuery, Series, SERIES_ID_MESSAGES, SERIES_MESSAGES, SeriesIdParams, UpdateSeriesInput } from './series.schemas.js'
import type { SeriesService } from './series.service.js'

const tags = ['series']
const extension = true

/** docs/api/schedule.md › Series: series of requests, their moderation, and (by the service) their occurrences. */
export const seriesRoutes: FastifyPluginAsyncTypebox<{ series: SeriesService }> = async (app, { series }) => {
  app.post('/request-series', {
    schema: {
      tags,
      summary: 'Ask for help on a schedule',
      description: 'The caller is the requester, or asks for a client or a person with `template.on_behalf_of` as POST /requests does ' +
        '(docs/api/on-behalf.md › Series for someone). The new series awaits moderation; once approved, its occurrences are created as ' +
        'approved requests up to SERIES_HORIZON_DAYS ahead. `days` are answered in week order.',
      body: CreateSeriesInput,
      response: { 201: Series, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension, messages: SERIES_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await series.create(request.user, request.body)))

  app.get('/request-series/mine', {
    schema: {
      tags,
      summary: 'The caller\'s series, newest first',
      description: 'With `for_user_id`, the series of a person who made the caller her carer (an accepted grant, which always ' +
        'includes `follow`; anyone else → 403 \'not allowed for this person\'); with `client_id`, every series asked for that client, ' +
        'by any coordinator (`coordinate_requests`, else 403 \'coordinator role required\'; an unknown or erased client → 404 ' +
        '\'client not found\'). Not both (400 \'invalid client_id\'). docs/api/on-behalf.md › Series for someone.',
      querystring: MySeriesQuery,
      response: { 200: Type.Array(Series), ...errors(400, 401, 403, 404, 500) },
    },
    config: { auth: 'user', extension, failure: 'failed to get series', messages: MY_SERIES_MESSAGES },
  }, (request) => {
    const { for_user_id: forUser, client_id: client } = request.query
    return series.mine(request.user, parsePage(request.query), forUser === undefined ? undefined : Number(forUser), client === undefined ? undefined : Number(client))
  })

  app.get('/request-series/:id', {
    schema: {
      tags,
      summary: 'One series',
      description: 'For its requester and those who act for her (coordinators on a client\'s series, her carers), moderators and admins; anyone else gets 404.',
      params: SeriesIdParams,
      response: { 200: Series, ...errors(400, 401, 404, 500) },
    },
    config: { auth: 'user', extension, messages: SERIES_ID_MESSAGES, failure: 'failed to get series' },
  }, (request) => series.get(request.user, request.params.id))

  app.patch('/request-series/:id', {
    schema: {
      tags,
      summary: 'Change a series (its requester, a coordinator of its client, a carer with `create`)',
      description: 'Coming occurrences follow the change: created ones without an accepted offer that it touches are cancelled ' +
        '(`cancel_reason` series_changed) and created anew; accepted ones stay. A changed template sends an active series back to moderation.',
      params: SeriesIdParams,
      body: UpdateSeriesInput,
      response: { 200: Series, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension, messages: { ...SERIES_ID_MESSAGES, ...SERIES_MESSAGES } },
  }, (request) => series.update(request.user, request.params.id, request.body))

  app.post('/request-series/:id/end', {
    schema: {
      tags,
      summary: 'End a series (its requester, a coordinator of its client, a carer with `cancel`, a moderator or an admin)',
      description: 'Every coming occurrence is cancelled as a request cancel does (volunteers told); past ones stay. No body.',
      params: SeriesIdParams,
      response: { 200: Series, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension, messages: SERIES_ID_MESSAGES },
  }, (request) => series.end(request.user, request.params.id))

  app.get('/moderation/series/pending', {
    schema: {
      tags,
      summary: 'Series awaiting moderation, oldest first',
      description: 'Except the caller\'s own (nobody moderates their own).',
      querystring: PageQuery,
      response: { 200: Type.Array(Series), ...errors(401, 403, 500) },
    },
    config: { auth: 'mod', extension, failure: 'failed to get pending series' },
  }, (request) => series.pending(request.user, parsePage(request.query)))

  app.post('/moderation/series/:id/approve', {
    schema: {
      tags,
      summary: 'Approve a pending series: its occurrences are created up to the horizon',
      description: 'The body is a JSON object, `{}` at the least.',
      params: SeriesIdParams,
      body: ApproveInput,
      response: { 200: Series, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', extension, messages: SERIES_ID_MESSAGES },
  }, (request) => series.decide(request.user, request.params.id, 'approve', request.body.comment))

  app.post('/moderation/series/:id/reject', {
    schema: {
      tags,
      summary: 'Reject a pending series, with the reason',
      params: SeriesIdParams,
      body: RejectInput,
      response: { 200: Series, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', extension, messages: { ...SERIES_ID_MESSAGES, comment: COMMENT_REQUIRED } },
  }, (request) => series.decide(request.user, request.params.id, 'reject', request.body.comment))

  app.post('/requests/:id/decline', {
    schema: {
      tags,
      summary: 'Decline an invitation to help again',
      description: 'The series\' preferred volunteer, invited alone to a new occurrence, cannot help this time: its alert rounds ' +
        'start now instead of after the hold. They stay the preferred volunteer. The answer is an empty object.',
      params: RequestIdParams,
      response: { 200: Type.Object({}, { additionalProperties: false }), ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension, messages: REQUEST_ID_MESSAGES },
  }, (request) => series.decline(request.user, request.params.id))
}
