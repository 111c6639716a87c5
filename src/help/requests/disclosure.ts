import type { Clock } from '../../lib/clock.js'
import { isModerator, type Principal } from '../../lib/principal.js'
import type { AccessField, NewAccessRecord, ViewerRole } from '../../accounts/access/access.repo.js'
import type { AccessRecorder } from '../../accounts/access/access.recorder.js'
import type { DetailRow, RequestRow } from './requests.repo.js'
import type { Request, RequestDetail, RequestListItem } from './requests.schemas.js'
import { locationFor, seesExactPoint, withLocation, type ListedRow } from './search/shared.js'
import { isParty, type Parties } from './visibility.js'
import { initialOf } from '../../lib/names.js'

/**
 * What a viewer is shown of a request (docs/privacy.md › `ADDRESS_PRIVACY=parties`, docs/api/help.md › Reading one request, docs/privacy.md › The grid), in one
 * place: every answer that carries a request (the searches, the caller's own list, the moderation lists,
 * GET /requests/{id}, a moderator's cancel) is made by these functions, so no route can show an address,
 * a full name or contact details the viewer may not see; and Disclosure, which every route's service goes
 * through, writes the access record of what it revealed (docs/privacy.md › Access records) before the answer leaves.
 */

/** The settings that decide what strangers see. */
export interface DisclosurePolicy {
  /** docs/privacy.md › The grid: the grid of the `location` shown to those who may not see the exact point. */
  mapGridMeters: number
  /** docs/privacy.md › `ADDRESS_PRIVACY=parties`: `parties` shows the street address and the requester's full name to the request's parties only. */
  addressPrivacy: 'full' | 'parties'
}

/** What a non-party reads in `address` of a request without a city (docs/privacy.md › `ADDRESS_PRIVACY=parties`). */
export const ADDRESS_HIDDEN_TEXT = 'address shared after acceptance'

/**
 * Whether the viewer sees the street address and the requester's full name: always under `full`;
 * under `parties` exactly those who see the exact point (the requester, moderators and admins, the
 * assigned volunteer while in_progress or completed), since a full address tells as much as the point.
 */
export function seesAddress (viewer: Principal, row: Parameters<typeof seesExactPoint>[1], policy: DisclosurePolicy): boolean {
  return policy.addressPrivacy === 'full' || seesExactPoint(viewer, row)
}

/** The address a non-party is shown: the city, or the sentence saying when the address comes. */
export const hiddenAddress = (city: string | null): string => city !== null && city.trim() !== '' ? city : ADDRESS_HIDDEN_TEXT

/** `address_hidden` under `parties` only: under `full` the answers stay exactly interface 1.0.1's (docs/privacy.md › `ADDRESS_PRIVACY=parties` allows it absent). */
const addressHidden = (hidden: boolean, policy: DisclosurePolicy): { address_hidden?: boolean } =>
  policy.addressPrivacy === 'parties' ? { address_hidden: hidden } : {}

/** The API's list item of a row, for this viewer; list items do not show the parties' ids. */
export function toListItem (viewer: Principal, row: ListedRow, policy: DisclosurePolicy): RequestListItem {
  const shown = seesAddress(viewer, row, policy)
  const item: RequestListItem = {
    id: row.id,
    title: row.title,
    description: row.description,
    address: shown ? row.address : hiddenAddress(row.city),
    city: row.city,
    urgency: row.urgency,
    status: row.status,
    requester_name: shown ? row.requester_name : row.requester_short_name,
    request_type_name: row.request_type_name,
    created_at: row.created_at,
    window_start: row.window_start,
    window_end: row.window_end,
    series_id: row.series_id,
    confirmed_at: row.confirmed_at,
    location: locationFor(viewer, row, policy.mapGridMeters),
    needs: row.needs,
    languages: row.languages,
  }
  if (row.suitable != null) item.suitable = row.suitable
  // Set, not spread in: a spread copies per item, and lists are the hot path (docs/performance.md › Nearby search CPU).
  if (policy.addressPrivacy === 'parties') item.address_hidden = !shown
  return item
}

/**
 * The detail as this viewer may see it: contact details for the parties of docs/api/help.md › Reading one request (the
 * assigned volunteer in any status), address and the requester's last name and e-mail as seesAddress says.
 */
export function toDetail (viewer: Principal, row: DetailRow, policy: DisclosurePolicy): RequestDetail {
  const contact = isParty(viewer, row)
  const shown = seesAddress(viewer, row, policy)
  const { suitable, ...detail } = withLocation(viewer, row, policy.mapGridMeters)
  return {
    ...detail,
    ...(suitable === null ? {} : { suitable }),
    contact_phone: contact ? row.contact_phone : null,
    contact_notes: contact ? row.contact_notes : null,
    address: shown ? row.address : hiddenAddress(row.city),
    requester: shown ? row.requester : { ...row.requester, last_name: initialOf(row.requester.last_name), email: null },
    // docs/api/on-behalf.md › Coordinators and clients: whom the request is for, to its parties only; the whole record is at /clients/{id}.
    // The surname in full beside the interface's initial: the volunteer at the door is a party (full_name).
    client: contact && row.client !== null ? { ...row.client, last_name: initialOf(row.client.last_name), full_name: `${row.client.first_name} ${row.client.last_name}` } : null,
    ...addressHidden(!shown, policy),
  }
}

/** Which role let a viewer other than the requester see a request's details (docs/privacy.md › Access records `viewer_role`). */
export function roleOf (viewer: Principal, request: Parties): ViewerRole {
  if (viewer.id === request.assigned_volunteer_id) return 'assigned volunteer'
  if (viewer.roles.includes('admin')) return 'admin'
  if (isModerator(viewer)) return 'moderator'
  return request.viewer_is_carer === true ? 'carer' : 'coordinator'
}

/** A request as an answer reveals it; list items carry no contact details. */
type Revealing = Parties & Pick<RequestRow, 'id' | 'status'> & Partial<Pick<RequestRow, 'contact_phone' | 'contact_notes'>>

/**
 * The request's fields this answer gives a viewer other than its requester (docs/privacy.md › Access records): its contact
 * details when they are shown and not empty, and its address when ADDRESS_PRIVACY=parties shows it.
 */
export function revealedFields (viewer: Principal, row: Revealing, policy: DisclosurePolicy): NewAccessRecord | undefined {
  if (viewer.id === row.requester_id) return undefined
  const contact = isParty(viewer, row)
  const fields: AccessField[] = [
    ...(contact && row.contact_phone != null ? ['contact_phone' as const] : []),
    ...(contact && row.contact_notes != null ? ['contact_notes' as const] : []),
    ...(policy.addressPrivacy === 'parties' && seesAddress(viewer, row, policy) ? ['address' as const] : []),
  ]
  if (fields.length === 0) return undefined
  return { kind: 'request', viewerId: viewer.id, ownerId: row.requester_id, requestId: row.id, viewerRole: roleOf(viewer, row), fields }
}

/**
 * Makes the answers that carry requests, and records what each revealed in one statement before it is
 * returned (so before it is sent): a list's reveals are written together.
 */
export class Disclosure {
  constructor (readonly access: AccessRecorder, readonly policy: DisclosurePolicy, private readonly clock: Clock) {}

  async list<R extends ListedRow, T> (viewer: Principal, rows: readonly R[], make: (viewer: Principal, row: R, policy: DisclosurePolicy) => T): Promise<T[]> {
    const items: T[] = []
    const reveals: NewAccessRecord[] = []
    for (const row of rows) {
      items.push(make(viewer, row, this.policy))
      // List items carry no contact details: only the address, under `parties`.
      const revealed = this.policy.addressPrivacy === 'parties' ? revealedFields(viewer, row, this.policy) : undefined
      if (revealed !== undefined) reveals.push(revealed)
    }
    await this.access.record(reveals, this.clock.now())
    return items
  }

  async detail (viewer: Principal, row: DetailRow): Promise<RequestDetail> {
    const detail = toDetail(viewer, row, this.policy)
    await this.record(revealedFields(viewer, row, this.policy))
    return detail
  }

  /** A whole Request (create, cancel): only its parties ever get one, so nothing is blanked; a moderator's is recorded. */
  async request (viewer: Principal, row: RequestRow): Promise<Request> {
    await this.record(revealedFields(viewer, row, this.policy))
    return row
  }

  private async record (revealed: NewAccessRecord | undefined): Promise<void> {
    if (revealed !== undefined) await this.access.record([revealed], this.clock.now())
  }
}
