import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { RequestAccessRecord } from '../../accounts/access/access.schemas.js'
import { parseBounds, parseMapView, parseNearby, parseSuitable } from './requests.query.js'
import {
  BOUNDS_MESSAGES, BoundsQuery, COORDINATED_MESSAGES, CoordinatedQuery, CoordinatedRequest, MY_REQUESTS_MESSAGES, MyRequestsQuery, MAP_MESSAGES, CREATE_REQUEST_MESSAGES,
  CreateRequestInput, MapQuery, MapView, NEARBY_MESSAGES, NearbyQuery,
  Request, REQUEST_ID_MESSAGES, RequestDetail, RequestIdParams, RequestListItem, RequestWithDistance,
} from './requests.schemas.js'
import type { RequestsService } from './requests.service.js'
import { searchBounds } from './search/bounds.js'
import { searchMap } from './search/map.js'
import { searchNearby } from './search/nearby.js'
import type { SearchContext } from './search/context.js'

const tags = ['requests']
const SEARCH_FAILURE = 'failed to find requests: internal error'

/** The searches run straight on `search` (search/); the rest goes through the service. */
export const requestsRoutes: FastifyPluginAsyncTypebox<{ requests: RequestsService, search: SearchContext }> = async (app, { requests, search }) => {
  app.post('/requests', {
    schema: {
      tags,
      summary: 'Ask for help',
      description: 'The caller is the requester; a requester id in the body is ignored. The new request awaits moderation.',
      body: CreateRequestInput,
      response: { 201: Request, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', messages: CREATE_REQUEST_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await requests.create(request.user, request.body)))

  // The fixed paths below are matched before /requests/:id whatever the order (static segments win).
  app.get('/requests/my', {
    schema: {
      tags,
      summary: 'The requests the caller created, newest first',
      description: 'With `for_user_id` (docs/api/on-behalf.md › Carers): the requests of that person, for a carer they granted `follow`; ' +
        'anyone else → 403 \'not allowed for this person\'.',
      querystring: MyRequestsQuery,
      response: { 200: Type.Array(RequestListItem), ...errors(400, 401, 403, 500) },
    },
    config: { auth: 'user', failure: 'failed to get requests', messages: MY_REQUESTS_MESSAGES },
  }, (request) => {
    const forUserId = request.query.for_user_id
    return requests.listMine(request.user, parsePage(request.query), forUserId === undefined ? undefined : Number(forUserId))
  })

  app.get('/requests/coordinated', {
    schema: {
      tags,
      summary: 'Every client\'s request, soonest needed first (docs/api/on-behalf.md › Coordinators and clients), for coordinators',
      description: 'Requests a coordinator asked for a client, in `status` when given: by `window_start`, else `desired_completion_date` ' +
        '(those without either last), then oldest first. Each is a list item with `client_id` and `client_name` (first name and last initial), ' +
        'so that a coordinator knows whom to phone. Needs `coordinate_requests`: otherwise 403 `coordinator role required`.',
      querystring: CoordinatedQuery,
      response: { 200: Type.Array(CoordinatedRequest), ...errors(400, 401, 403, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get requests', messages: COORDINATED_MESSAGES },
  }, (request) => requests.listCoordinated(request.user, request.query.status, parsePage(request.query)))

  app.get('/requests/nearby', {
    schema: {
      tags,
      summary: 'Active requests near a point, nearest first',
      description: 'Requests in pending_moderation, approved or in_progress within `radius` metres (great-circle), ' +
        'ordered by distance, then id. Numbers are plain decimals (`52.52`, `-0.5`, `1e2`).',
      querystring: NearbyQuery,
      response: { 200: Type.Array(RequestWithDistance), ...errors(400, 401, 500) },
    },
    config: { auth: 'user', failure: SEARCH_FAILURE, messages: NEARBY_MESSAGES },
  }, (request) => searchNearby(search, request.user, parseNearby(request.query), parsePage(request.query), parseSuitable(request.query.suitable)))

  app.get('/requests/bounds', {
    schema: {
      tags,
      summary: 'Active requests inside a map rectangle, newest first',
      description: 'min_lon > max_lon means the rectangle crosses the antimeridian. `limit` and `offset` have no effect; ' +
        'at most a configured number of requests (default 1000) is returned, and `X-Result-Truncated: true` says the cap cut the answer.',
      querystring: BoundsQuery,
      response: { 200: Type.Array(RequestListItem), ...errors(400, 401, 500) },
    },
    config: { auth: 'user', failure: SEARCH_FAILURE, messages: BOUNDS_MESSAGES },
  }, async (request, reply) => {
    const { items, truncated } = await searchBounds(search, request.user, parseBounds(request.query), parseSuitable(request.query.suitable))
    if (truncated) reply.header('X-Result-Truncated', 'true')
    return items
  })

  app.get('/requests/map', {
    schema: {
      tags,
      summary: 'What a map draws of the active requests inside a rectangle, nearest its centre first',
      description: 'Of the requests `/requests/bounds` finds for the same rectangle and caller, the MAP_MARKER_CAP nearest its centre ' +
        '(then by id), each with only its id, title, type, urgency, status and `location`: for drawing markers. `truncated` says more lie inside. ' +
        'center_lat and center_lon (together) choose another point to be nearest to, such as the middle of a view wider than the world.',
      querystring: MapQuery,
      response: { 200: MapView, ...errors(400, 401, 500) },
    },
    config: { auth: 'user', extension: true, failure: SEARCH_FAILURE, messages: MAP_MESSAGES },
  }, (request) => {
    const { rectangle, centre } = parseMapView(request.query)
    return searchMap(search, request.user, rectangle, centre, parseSuitable(request.query.suitable))
  })

  app.get('/requests/:id', {
    schema: {
      tags,
      summary: 'One request with its requester, type and assigned volunteer',
      description: 'Contact details are null unless the caller is the requester, the assigned volunteer, a moderator or an admin ' +
        '(or a carer the requester trusts, docs/api/on-behalf.md › Carers). Rejected and cancelled requests are visible only to those same people; others get 404.',
      params: RequestIdParams,
      response: { 200: RequestDetail, ...errors(400, 401, 404) },
    },
    // docs/api/conventions.md › Everywhere: a failure to load one request by id is 404, so this operation has no 500.
    config: { auth: 'user', messages: REQUEST_ID_MESSAGES, failure: REQUEST_NOT_FOUND, failureStatus: 404 },
  }, (request) => requests.get(request.user, request.params.id))

  app.post('/requests/:id/cancel', {
    schema: {
      tags,
      summary: 'Cancel a request',
      description: 'The requester, a moderator or an admin cancels a request in pending_moderation, approved or in_progress; ' +
        'its pending and accepted responses are cancelled with it. No body.',
      params: RequestIdParams,
      response: { 200: Request, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => requests.cancel(request.user, request.params.id))
  app.get('/requests/:id/access-log', {
    schema: {
      tags: ['requests'],
      summary: 'Who has been shown this request\'s contact details, newest first',
      description: 'For the requester, moderators and admins; anyone else gets 404. A record names the viewer, the role that let them see, ' +
        'the fields (`contact_phone`, `contact_notes`, and under ADDRESS_PRIVACY=parties `address`) and when; the same viewer seeing the same ' +
        'fields again within 10 minutes moves the time of one record instead of adding another.',
      params: RequestIdParams,
      querystring: PageQuery,
      response: { 200: Type.Array(RequestAccessRecord), ...errors(400, 401, 404, 500) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES, failure: 'failed to get access log' },
  }, (request) => requests.accessLog(request.user, request.params.id, parsePage(request.query)))
}
