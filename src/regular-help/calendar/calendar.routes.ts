import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import type { CalendarService } from './calendar.service.js'
import { CalendarFeed, ComingHelpItem, FeedParams, FeedText } from './calendar.schemas.js'

const tags = ['users']

/** docs/api/schedule.md › Calendar feed: the calendar feed and its secret address; › Coming help. */
export const calendarRoutes: FastifyPluginAsyncTypebox<{ calendar: CalendarService }> = async (app, { calendar }) => {
  app.post('/users/me/calendar', {
    schema: {
      tags,
      summary: 'Make a new secret address for the caller\'s calendar feed',
      description: 'A new token each time; the previous address stops working at once. The token is stored only as a hash: ' +
        'the address is shown this once. No body.',
      response: { 201: CalendarFeed, ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, async (request, reply) => reply.code(201).send(await calendar.newFeed(request.user)))

  app.delete('/users/me/calendar', {
    schema: {
      tags,
      summary: 'Stop the caller\'s calendar feed',
      description: 'Its address answers 404 from now on; also when there was none.',
      response: { 204: Type.Null({ description: 'No feed (no body)' }), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, async (request, reply) => {
    await calendar.deleteFeed(request.user)
    return reply.code(204).send(null)
  })

  app.get('/calendar/:token.ics', {
    schema: {
      tags,
      summary: 'A calendar feed (iCalendar), for calendar programs: no sign-in, the token is the key',
      description: 'The feed owner\'s own requests with a window and those assigned to them, from 30 days back to ' +
        'SERIES_HORIZON_DAYS ahead; cancelled ones as STATUS:CANCELLED. The address only in the assigned volunteer\'s feed. ' +
        '`Cache-Control: private, no-store`. An unknown, replaced or deleted token: 404.',
      params: FeedParams,
      response: { 200: { content: { 'text/calendar': { schema: FeedText } } }, ...errors(404) },
    },
    config: { auth: 'none', extension: true },
  }, async (request, reply) => {
    const text = await calendar.feed(request.params.token)
    // The feed carries addresses to its owner alone: no shared cache may keep a copy.
    return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, no-store').send(text)
  })

  app.get('/users/me/coming-help', {
    schema: {
      tags,
      summary: 'What is coming: the caller\'s own requests and those they help with, with a window not yet over, soonest first',
      description: 'Own requests awaiting moderation, approved or in progress (`role: requester`) and in_progress requests ' +
        'assigned to the caller (`role: volunteer`), whose window ends after now; `needs_confirmation` marks those to confirm.',
      querystring: PageQuery,
      response: { 200: Type.Array(ComingHelpItem), ...errors(401) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => calendar.comingHelp(request.user, parsePage(request.query)))
}
