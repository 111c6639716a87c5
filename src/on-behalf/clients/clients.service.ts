import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import type { Acting } from '../../events/events.js'
import type { Clock } from '../../lib/clock.js'
import { badRequest, forbidden, notFound } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import { CLIENT_NOT_FOUND, COORDINATOR_REQUIRED } from '../../help/requests/acting.js'
import { findInProgressRoles } from '../../help/requests/requests.reads.js'
import { INVALID_LANGUAGES, MAX_REQUEST_LANGUAGES } from '../../help/requests/needs-input.js'
import { parseLanguages } from '../../lib/matching-values.js'
import * as requests from '../../help/requests/retention.repo.js'
import { gridPoint } from '../../lib/grid.js'
import { endSeriesOfClient, minimiseSeries } from '../../regular-help/series/series.repo.js'
import * as clients from './clients.repo.js'
import type { ClientFields, ClientRow } from './clients.repo.js'
import { LOCATION_TOGETHER, type Client, type ConsentHow, type CreateClientInput, type UpdateClientInput } from './clients.schemas.js'

/** The text docs/privacy.md › Erasure refuses an erasure with while a request is in_progress (DELETE /users/me). */
export const OPEN_REQUESTS_FIRST = 'finish or cancel your open requests first'

const toClient = (row: ClientRow): Client => ({
  id: row.id,
  first_name: row.first_name,
  last_name: row.last_name,
  phone: row.phone,
  address: row.address,
  city: row.city,
  latitude: row.latitude,
  longitude: row.longitude,
  needs: row.needs,
  consent: { how: row.consent_how, recorded_by: row.consent_recorded_by, recorded_at: row.consent_recorded_at },
  texts: row.texts_how === null ? null : { how: row.texts_how, recorded_by: row.texts_recorded_by, recorded_at: row.texts_recorded_at! },
  locale: row.locale,
  created_at: row.created_at,
  updated_at: row.updated_at,
})

/** docs/api/visits.md › Needs and matching: the one record that shows a client's gender and languages (GET and PATCH /clients/{id}). */
const withMatching = (row: ClientRow): Client => ({ ...toClient(row), gender: row.gender, languages: row.languages })

/** The fields the body gives, latitude and longitude both or neither (either may be null, to clear the point). */
function fieldsOf (input: Omit<UpdateClientInput, 'consent' | 'texts'>): ClientFields {
  if ((input.latitude === undefined) !== (input.longitude === undefined) || (input.latitude === null) !== (input.longitude === null)) {
    throw badRequest(LOCATION_TOGETHER)
  }
  const { languages, ...rest } = input
  if (languages === undefined) return rest
  const parsed = parseLanguages(languages, MAX_REQUEST_LANGUAGES)
  if (parsed === undefined) throw badRequest(INVALID_LANGUAGES)
  return { ...rest, languages: parsed }
}

/** docs/api/on-behalf.md › Coordinators and clients: coordinators' records of the people without an account they ask for. */
export class ClientsService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly clock: Clock,
    private readonly options: { mapGridMeters: number }
  ) {}

  /** Coordinators, moderators and admins read clients; only coordinators (and admins, who hold the permission) write. */
  #mayRead (user: Principal): void {
    if (!hasPermission(user, 'coordinate_requests') && !isModerator(user)) throw forbidden(COORDINATOR_REQUIRED)
  }

  #mayWrite (user: Principal): void {
    if (!hasPermission(user, 'coordinate_requests')) throw forbidden(COORDINATOR_REQUIRED)
  }

  async create (user: Principal, input: CreateClientInput): Promise<Client> {
    this.#mayWrite(user)
    const { consent, ...given } = input
    const fields = { ...given, ...fieldsOf(given) }
    const row = await clients.insertClient(this.db, fields, { how: consent.how, recordedBy: user.id, at: this.clock.now() })
    return toClient(row)
  }

  async list (user: Principal, q: string | undefined, page: Page): Promise<Client[]> {
    this.#mayRead(user)
    return (await clients.searchClients(this.db, q, page)).map(toClient)
  }

  async get (user: Principal, id: number): Promise<Client> {
    this.#mayRead(user)
    const row = await clients.findClient(this.db, id)
    if (row === undefined) throw notFound(CLIENT_NOT_FOUND)
    return withMatching(row)
  }

  async update (user: Principal, id: number, input: UpdateClientInput): Promise<Client> {
    this.#mayWrite(user)
    const { consent, texts, ...rest } = input
    const fields = fieldsOf(rest)
    return await this.db.transaction(async (tx) => {
      if (await clients.lockClient(tx, id) === undefined) throw notFound(CLIENT_NOT_FOUND)
      const now = this.clock.now()
      const recorded = (how: ConsentHow) => ({ how, recordedBy: user.id, at: now })
      // docs/api/on-behalf.md › Texts to a client: a withdrawal takes effect on texts not yet sent (the sending loop drops them).
      const textsChange = texts === undefined ? undefined : texts === null ? null : recorded(texts.how)
      return withMatching(await clients.updateClient(tx, id, fields, consent === undefined ? undefined : recorded(consent.how), textsChange, now))
    })
  }

  /**
   * Erases the client as docs/privacy.md › Erasure erases an account, in one transaction, or refuses and changes
   * nothing: their active requests cancelled (by the caller, as a coordinator for the client), refused while
   * one is in_progress (after the cancelling, as DELETE /users/me: a racing accept is either seen or loses),
   * finished ones minimised, the row deleted. Requests keep client_id; RequestDetail then shows `client: null`.
   */
  async erase (user: Principal, id: number): Promise<void> {
    this.#mayWrite(user)
    const acting: Acting = { id: user.id, role: 'coordinator', onBehalfOf: { client_id: id } }
    await this.changes.run(acting, async (tx, change) => {
      if (await clients.lockClient(tx, id) === undefined) throw notFound(CLIENT_NOT_FOUND)
      const of = { clientId: id }
      // Their series first, so no occurrence is made after the requests are cancelled (series, then requests).
      const grid = this.options.mapGridMeters
      const ended = await endSeriesOfClient(tx, id, change.at)
      await minimiseSeries(tx, ended.map((row) => ({ id: row.id, ...gridPoint(row.latitude, row.longitude, grid) })), requests.REMOVED)
      for (const request of await requests.cancelActiveRequestsOf(tx, of)) {
        change.record({ type: 'request_cancelled', requestId: Number(request.id), requesterId: Number(request.requester_id), cancelledBy: user.id })
      }
      if ((await findInProgressRoles(tx, of)).as_requester) throw badRequest(OPEN_REQUESTS_FIRST)
      await requests.minimiseFinishedRequestsOf(tx, of, this.options.mapGridMeters)
      await clients.deleteClient(tx, id)
    })
  }
}
