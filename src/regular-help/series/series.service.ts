import { isDeepStrictEqual } from 'node:util'
import type { Database, Transaction } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import type { Clock } from '../../lib/clock.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import type { AccessField, NewAccessRecord } from '../../accounts/access/access.repo.js'
import type { AccessRecorder } from '../../accounts/access/access.recorder.js'
import { isActiveRequestType } from '../../help/request-types/request-types.repo.js'
import { actingAsModerator, actingAsVolunteer, withClientDefaults, type ActingPolicy, type ClientDefaults } from '../../help/requests/acting.js'
import { lockRequest } from '../../help/requests/requests.repo.js'
import { resolveNeeds } from '../../help/requests/needs-input.js'
import { isVisibleTo } from '../../help/requests/visibility.js'
import { actingOnSeries, checkSameFor } from './behalf.js'
import { cancelAll, createOccurrences, horizonEnd, type OccurrenceSettings } from './occurrences.js'
import { checkPattern, inWeekOrder, occurrencesBetween } from './recurrence.js'
import * as series from './series.repo.js'
import { NOT_PENDING, SERIES_NOT_FOUND, type CreateSeriesInput, type Series, type UpdateSeriesInput } from './series.schemas.js'

export interface SeriesSettings extends OccurrenceSettings {
  /** TIME_ZONE: a series' zone when it names none. */
  timeZone: string
  addressPrivacy: 'full' | 'parties'
}

export const NOT_INVITED = 'only the invited volunteer can decline'
export const NOT_OPEN = 'request is not open for responses'

/** A series as the API shows it (moderation columns stay inside). */
function toSeries ({ moderated_by: _by, moderated_at: _at, created_by_carer: _carer, ...row }: series.SeriesRow): Series {
  // A template stored before needs existed has none (docs/api/visits.md › Needs and matching).
  const template = { ...row.template, needs: row.template.needs ?? [], languages: row.template.languages ?? [] }
  return { ...row, template, days: inWeekOrder(row.days) }
}

/** The template without the requester's preference, which is no text for a moderator to check. */
const textOf = ({ auto_accept_preferred: _preference, ...text }: series.SeriesFields['template']) => text

/**
 * docs/api/schedule.md › Series: a series is moderated once and then creates ordinary requests (its occurrences),
 * already approved, up to SERIES_HORIZON_DAYS ahead (here at approval and after a change; afterwards the
 * horizon job, horizon.ts). Every change locks the series row first, then its occurrences.
 */
export class SeriesService {
  constructor (
    private readonly db: Database, private readonly changes: Changes, private readonly clock: Clock,
    private readonly settings: SeriesSettings, private readonly access: AccessRecorder,
    private readonly acting: ActingPolicy
  ) {}

  /** For the caller, a client (coordinators) or a person who granted `create` (docs/api/on-behalf.md › Series for someone). */
  async create (user: Principal, input: CreateSeriesInput): Promise<Series> {
    const { on_behalf_of: onBehalfOf, ...template } = input.template
    const standing = await this.acting.toCreate(this.db, user, onBehalfOf)
    const located = withClientDefaults(template, standing.client)
    const needs = await resolveNeeds(this.db, located, { requestTypeId: located.request_type_id, requesterId: standing.requesterId, clientId: standing.client?.id ?? null })
    const fields: series.SeriesFields = {
      template: { ...located, ...needs },
      days: inWeekOrder(input.days),
      start_time: input.start_time,
      duration_minutes: input.duration_minutes,
      every_weeks: input.every_weeks ?? 1,
      starts_on: input.starts_on,
      ends_on: input.ends_on ?? null,
      return_time: input.return_time ?? null,
      time_zone: input.time_zone ?? this.settings.timeZone,
    }
    checkPattern(fields, this.clock.now())
    if (!await isActiveRequestType(this.db, input.template.request_type_id)) throw badRequest('invalid request type')
    const origin = { clientId: standing.client?.id ?? null, carerId: standing.acting.role === 'carer' ? user.id : null }
    return toSeries(await series.insertSeries(this.db, standing.requesterId, fields, this.clock.now(), origin))
  }

  /**
   * The caller's series; a carer's person's (any accepted grant: reading follows); or a client's, for coordinators, as
   * each may read them one by one (docs/api/on-behalf.md › Series for someone).
   */
  async mine (user: Principal, page: Page, forUserId?: number, clientId?: number): Promise<Series[]> {
    if (forUserId !== undefined && clientId !== undefined) throw badRequest('invalid client_id')
    let of: series.SeriesOf = { requesterId: user.id }
    if (forUserId !== undefined && forUserId !== user.id) {
      await this.acting.asFollower(this.db, user, forUserId)
      of = { personId: forUserId }
    } else if (clientId !== undefined) {
      // The coordinator's standing on a client, as asking for them checks it: the role, and a client on record.
      of = { clientId: (await this.acting.toCreate(this.db, user, { client_id: clientId })).client?.id ?? clientId }
    }
    return (await series.listSeriesOf(this.db, of, page)).map(toSeries)
  }

  /** Its requester's side (behalf.ts), moderators and admins; to anyone else it does not exist. */
  async get (viewer: Principal, id: number): Promise<Series> {
    const { row, acting } = await actingOnSeries(this.db, this.acting, viewer, await series.findSeries(this.db, id), 'follow')
    return await this.showOne(viewer, row, acting !== undefined)
  }

  /**
   * The requester changes the series (docs/api/schedule.md › Series): occurrences to come follow the new plan; created
   * ones with no accepted offer that the change touches are cancelled ('series_changed') and created anew,
   * accepted ones stay. A changed template sends an active series back to moderation: then its coming
   * unaccepted occurrences are cancelled and none are created until it is approved again.
   */
  async update (user: Principal, id: number, input: UpdateSeriesInput): Promise<Series> {
    const updated = await this.changes.run(user.id, async (tx, change) => {
      const { row, acting } = await actingOnSeries(tx, this.acting, user, await series.lockSeries(tx, id), 'create')
      if (acting === undefined) throw forbidden('only the requester can change a series')
      change.actAs(acting)
      let template: series.SeriesFields['template'] = row.template
      if (input.template !== undefined) {
        const { on_behalf_of: onBehalfOf, ...given } = input.template
        checkSameFor(row, onBehalfOf)
        const located = withClientDefaults(given, await this.clientOf(tx, user, row))
        const whom = { requestTypeId: located.request_type_id, requesterId: row.requester_id, clientId: row.client_id }
        template = { ...located, ...await resolveNeeds(tx, located, whom) }
      }
      const fields: series.SeriesFields = {
        ...row,
        template,
        days: input.days !== undefined ? inWeekOrder(input.days) : row.days,
        start_time: input.start_time ?? row.start_time,
        duration_minutes: input.duration_minutes ?? row.duration_minutes,
        every_weeks: input.every_weeks ?? row.every_weeks,
        ends_on: input.ends_on !== undefined ? input.ends_on : row.ends_on,
        return_time: input.return_time !== undefined ? input.return_time : row.return_time,
      }
      checkPattern(fields, undefined)
      if (input.template !== undefined && input.template.request_type_id !== row.template.request_type_id &&
        !await isActiveRequestType(tx, input.template.request_type_id)) throw badRequest('invalid request type')
      const textChanged = !isDeepStrictEqual(textOf(fields.template), textOf(row.template))
      const status = row.status === 'active' && textChanged ? 'pending_moderation' : row.status
      const changed = await series.updateSeries(tx, id, fields, status, change.at)
      if (row.status === 'active') await this.replan(tx, change, changed, textChanged, user.id)
      return changed
    })
    return toSeries(updated)
  }

  /**
   * After a change to an active series: each coming occurrence without an accepted offer is kept when the
   * new plan has it unchanged (same window and kind, same text, its outbound trip kept), else cancelled;
   * then the plan is created (those kept, and the accepted ones, already hold their start).
   */
  private async replan (tx: Transaction, change: Change, row: series.SeriesRow, textChanged: boolean, by: number): Promise<void> {
    const active = row.status === 'active'
    const plan = active ? occurrencesBetween(row, change.at, horizonEnd(change.at, this.settings.horizonDays)) : []
    const key = (start: Date, end: Date, isReturn: boolean) => `${start.getTime()} ${end.getTime()} ${isReturn}`
    const planned = new Set(plan.map((p) => key(p.start, p.end, p.returnOf !== null)))
    const replaced = new Set<number>()
    for (const occurrence of await series.listComingOccurrences(tx, row.id, change.at)) {
      if (occurrence.status !== 'approved') continue
      const returnReplaced = occurrence.return_of !== null && replaced.has(occurrence.return_of)
      if (textChanged || returnReplaced || !planned.has(key(occurrence.window_start, occurrence.window_end, occurrence.return_of !== null))) replaced.add(occurrence.id)
    }
    await cancelAll(tx, change, row, [...replaced], ['approved'], 'series_changed', by)
    if (active) await createOccurrences(tx, change, row, this.settings, plan)
    else await series.setCreatedUntil(tx, row.id, null)
  }

  /** The requester or a moderator ends the series: every coming occurrence is cancelled as a request cancel does; past ones stay. */
  async end (user: Principal, id: number): Promise<Series> {
    const ended = await this.changes.run(user.id, async (tx, change) => {
      const { row, acting } = await actingOnSeries(tx, this.acting, user, await series.lockSeries(tx, id), 'cancel')
      // The occurrences' history says in what capacity they were cancelled (docs/api/on-behalf.md › A request's history).
      change.actAs(acting ?? actingAsModerator(user))
      const changed = await series.endSeries(tx, id, change.at) ?? row
      const coming = await series.listComingOccurrences(tx, id, change.at)
      await cancelAll(tx, change, row, coming.map((o) => o.id), ['pending_moderation', 'approved', 'in_progress'], acting !== undefined ? 'requester' : 'moderator', user.id)
      return { changed, onRequesterSide: acting !== undefined }
    })
    return await this.showOne(user, ended.changed, ended.onRequesterSide)
  }

  /** Series awaiting moderation, oldest first, but the moderator's own. */
  async pending (moderator: Principal, page: Page): Promise<Series[]> {
    return await this.shown(moderator, await series.listPending(this.db, moderator.id, page))
  }

  /** pending_moderation → active (its occurrences created to the horizon, in the same transaction) or rejected. */
  async decide (moderator: Principal, id: number, action: 'approve' | 'reject', comment: string | null | undefined): Promise<Series> {
    const reason = comment?.trim() ? comment : null
    if (action === 'reject' && reason === null) throw badRequest('comment is required when rejecting')
    const decided = await this.changes.run(moderator.id, async (tx, change) => {
      const row = await series.moderateSeries(tx, id, moderator.id, action === 'approve' ? 'active' : 'rejected', reason, change.at)
      if (row?.status === 'active') await createOccurrences(tx, change, row, this.settings)
      return row
    })
    if (decided !== undefined) return await this.showOne(moderator, decided)
    const row = await series.findSeries(this.db, id)
    if (row === undefined) throw notFound(SERIES_NOT_FOUND)
    if (row.requester_id === moderator.id) throw badRequest('cannot moderate own series')
    throw badRequest(NOT_PENDING)
  }

  /** A client's record for a changed template's defaults, read as the coordinator's standing reads it. */
  private async clientOf (tx: Transaction, user: Principal, row: series.SeriesRow): Promise<ClientDefaults | null> {
    return row.client_id === null ? null : (await this.acting.toCreate(tx, user, { client_id: row.client_id })).client
  }

  private async showOne (viewer: Principal, row: series.SeriesRow, onRequesterSide = false): Promise<Series> {
    return (await this.shown(viewer, [row], onRequesterSide))[0]!
  }

  /**
   * The series as answers give them, after recording (docs/privacy.md › Access records) what each gave a moderator or admin of
   * someone else's contact data: the template's contact details, and its address under ADDRESS_PRIVACY=parties,
   * in the requester's profile log (a series belongs to no request).
   */
  private async shown (viewer: Principal, rows: readonly series.SeriesRow[], onRequesterSide = false): Promise<Series[]> {
    const reveals: NewAccessRecord[] = []
    for (const row of rows) {
      // The requester's side (a coordinator of a client's series, a carer) reads it as the requester does.
      if (row.requester_id === viewer.id || onRequesterSide) continue
      const { template } = row
      const fields: AccessField[] = [
        ...(template.contact_phone != null ? ['contact_phone' as const] : []),
        ...(template.contact_notes != null ? ['contact_notes' as const] : []),
        ...(this.settings.addressPrivacy === 'parties' ? ['address' as const] : []),
      ]
      const viewerRole = viewer.roles.includes('admin') ? 'admin' : 'moderator'
      if (fields.length > 0) reveals.push({ kind: 'profile', viewerId: viewer.id, ownerId: row.requester_id, requestId: null, viewerRole, fields })
    }
    await this.access.record(reveals, this.clock.now())
    return rows.map(toSeries)
  }

  /**
   * docs/api/schedule.md › Series: the series' preferred volunteer, invited to an occurrence alone (preferred.ts), cannot
   * help this time: its alert rounds start now if they were still held. They stay the preferred volunteer;
   * declining again, or after the hold, changes nothing.
   */
  async decline (volunteer: Principal, requestId: number): Promise<Record<string, never>> {
    return await this.changes.run(actingAsVolunteer(volunteer), async (tx, change) => {
      // Shared: an accept or cancel under way is waited for, so the status read is the one that stays.
      const request = await lockRequest(tx, requestId, 'share')
      if (request === undefined || !isVisibleTo(volunteer, request)) throw notFound(REQUEST_NOT_FOUND)
      const preferred = await series.findPreferredOf(tx, requestId)
      if (preferred?.preferred_volunteer_id == null || Number(preferred.preferred_volunteer_id) !== volunteer.id) throw badRequest(NOT_INVITED)
      if (request.status !== 'approved') throw badRequest(NOT_OPEN)
      change.record({ type: 'invitation_declined', requestId, volunteerId: volunteer.id })
      return {}
    })
  }
}
