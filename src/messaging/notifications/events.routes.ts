import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { AppError } from '../../lib/errors.js'
import type { StreamHub } from '../../realtime/stream-hub.js'

export const TOO_MANY_STREAMS = 'too many open streams'

/** Last-Event-ID as a notification id; anything else is taken as absent (only new events). */
function lastEventId (raw: string | string[] | undefined): number | undefined {
  if (typeof raw !== 'string' || !/^\s*\d+\s*$/.test(raw)) return undefined
  const value = Number(raw)
  return Number.isSafeInteger(value) ? value : undefined
}

export const eventsRoutes: FastifyPluginAsyncTypebox<{ hub: StreamHub }> = async (app, { hub }) => {
  app.get('/events', {
    schema: {
      tags: ['notifications'],
      summary: 'Live events: own notifications as Server-Sent Events',
      description: 'Authenticated by the Authorization header only: a token in the URL is never read (401). ' +
        'Each notification is one event (`id:` its id, `event:` its type, `data:` the Notification as JSON), in id order. ' +
        'With `Last-Event-ID: N`, first every notification with id > N, then live; without it, only new ones. ' +
        '`: ping` comments at least every 25 s. The stream ends when the access token expires, when the user is blocked, ' +
        'when the client is too slow to take its events, and when the server shuts down: reconnect with a fresh token and Last-Event-ID. ' +
        'At most 5 open streams per user, across every instance on one database.',
      headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ description: 'the id of the last event received' })) }),
      response: {
        200: { description: 'An endless event stream', content: { 'text/event-stream': { schema: Type.String() } } },
        ...errors(401),
        429: { ...Type.Object({ error: Type.String() }), description: 'Too many open streams' },
      },
    },
    config: { auth: 'user', extension: true },
  }, async (request, reply) => {
    const stream = await hub.reserve(request.user.id, reply.raw)
    if (stream === undefined) throw new AppError(429, TOO_MANY_STREAMS)
    reply.hijack()
    const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined)) as Record<string, string | number | string[]>
    reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      // Proxies such as nginx would otherwise hold events back in their buffers.
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    })
    await hub.start(stream, lastEventId(request.headers['last-event-id']), request.accessExpiresAt)
  })
}
