import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { RANGE_MESSAGES, ReportRangeQuery, RequestsCsv, Summary, SummaryQuery, VolunteersCsv } from './reports.schemas.js'
import type { ReportsService } from './reports.service.js'

const tags = ['reports']

const RANGE = '`from` and `to` are dates (YYYY-MM-DD), both inclusive, in TIME_ZONE; default: from the first day of the ' +
  'month eleven months before `to`\'s month to today. Bad dates: 400 `invalid from` / `invalid to`; `from` after `to`: ' +
  '400 `invalid from`; 5 years or more: 400 `range is too long`. Only for holders of `view_reports` (admins, managers): ' +
  'others 403 `view_reports permission required`.'

/** docs/api/on-behalf.md › Reports for funders: reports for funders, read by admins and managers. */
export const reportsRoutes: FastifyPluginAsyncTypebox<{ reports: ReportsService }> = async (app, { reports }) => {
  app.get('/reports/summary', {
    schema: {
      tags,
      summary: 'What the service did, period by period: requests, people helped, volunteers, hours, waits',
      description: `${RANGE} \`by\`: \`month\` (default) or \`week\` (Monday to Sunday); anything else 400 \`invalid by\`. ` +
        'Created requests, their waits and their types and urgencies count in the period they were created in; completions, ' +
        'cancellations, expiries, people helped, active volunteers and hours in the period they ended in. ' +
        'A count from 1 to 4 of people, volunteers or a type or urgency is null and named in the period\'s `suppressed`.',
      querystring: SummaryQuery,
      response: { 200: Summary, ...errors(400, 401, 403, 500) },
    },
    config: { auth: 'user', extension: true, messages: RANGE_MESSAGES, failure: 'failed to get report' },
    preValidation: async (request) => reports.authorize(request.user),
  }, (request) => reports.summary(request.user, request.query))

  app.get('/reports/requests.csv', {
    schema: {
      tags,
      summary: 'Every request created in a range as CSV, without names, contact details, addresses, descriptions or points',
      description: `${RANGE} Streamed from the database in batches as the client reads it. Times are ISO 8601 UTC; ` +
        '`grid_cell` is `i:j`, the MAP_GRID_METERS cell (docs/api/help.md › Maps); `minutes_to_first_offer` and `minutes_to_accept` from ' +
        'creation, one decimal; `hours_of_help` accepted to completed, at most 12, two decimals; `on_behalf` `client`, ' +
        '`carer` or empty.',
      querystring: ReportRangeQuery,
      response: {
        200: {
          description: 'The CSV file',
          headers: {
            'content-disposition': Type.String({ description: '`attachment; filename="requests-<from>-<to>.csv"`' }),
          },
          content: { 'text/csv': { schema: RequestsCsv } },
        },
        ...errors(400, 401, 403, 500),
      },
    },
    config: { auth: 'user', extension: true, messages: RANGE_MESSAGES, failure: 'failed to get report' },
    preValidation: async (request) => reports.authorize(request.user),
  }, async (request, reply) => {
    const { filename, lines } = reports.csv(request.user, request.query)
    // Not object mode: the stream buffers bytes (one batch at most) and reads the next batch only as the client drains.
    const body = Readable.from(lines, { objectMode: false })
    return reply.type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      // The type provider types the body as the schema's string; fastify sends a stream of it as it is.
      .send(body as unknown as string)
  })

  app.get('/reports/volunteers.csv', {
    schema: {
      tags,
      summary: 'Per volunteer: the visits completed in a range, the minutes and kilometres recorded, and the mileage amount, as CSV',
      description: `${RANGE} A visit is a completed request the volunteer was assigned to, in the range by its completion day. ` +
        '`amount` is `distance_km` × MILEAGE_RATE, two decimals, in the operator\'s currency (docs/api/visit-checks.md › Hours and mileage).',
      querystring: ReportRangeQuery,
      response: {
        200: {
          description: 'The CSV file',
          headers: {
            'content-disposition': Type.String({ description: '`attachment; filename="volunteers-<from>-<to>.csv"`' }),
          },
          content: { 'text/csv': { schema: VolunteersCsv } },
        },
        ...errors(400, 401, 403, 500),
      },
    },
    config: { auth: 'user', extension: true, messages: RANGE_MESSAGES, failure: 'failed to get report' },
    preValidation: async (request) => reports.authorize(request.user),
  }, async (request, reply) => {
    const { filename, lines } = reports.volunteersCsv(request.user, request.query)
    return reply.type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(lines, { objectMode: false }) as unknown as string)
  })
}
