import type { AccountMessage, ReplyOutcome } from './notifications.js'

/**
 * What a change did, recorded in its transaction for the modules that react to it (dispatcher.ts).
 * An event says what happened, with the ids its reactions need and the few values they cannot read back
 * (a rejection's comment, a response's message); never who reacts or how. Adding a kind of side effect is
 * adding a reaction; adding an event is adding a member here.
 */
export type DomainEvent =
  /**
   * Someone asked for help (docs/api/on-behalf.md: for herself, for a client by a coordinator, or for a person by a carer;
   * the change's actor says which). `clientId`: the client's request.
   */
  | { type: 'request_created', requestId: number, requesterId: number, clientId: number | null }
  /** A moderator approved the request: alert rounds start. */
  | { type: 'request_approved', requestId: number, requesterId: number }
  | { type: 'request_rejected', requestId: number, requesterId: number, comment: string | null }
  /** The requester or a moderator cancelled it, or its requester's account was erased (`cancelledBy` then is the requester). */
  | { type: 'request_cancelled', requestId: number, requesterId: number, cancelledBy: number }
  /** The responses still open on a cancelled request were cancelled with it; their volunteers. */
  | { type: 'open_responses_cancelled', requestId: number, volunteerIds: number[] }
  | { type: 'response_created', requestId: number, requesterId: number, responseId: number, volunteerName: string, message: string | null }
  /** The requester accepted one response; the other pending ones were rejected with it. */
  | { type: 'response_accepted', requestId: number, responseId: number, volunteerId: number, rejected: Array<{ responseId: number, volunteerId: number }> }
  /**
   * The volunteer withdrew (or their account was erased); an accepted one put the request back to approved.
   * `missedConfirmation`: the schedule job withdrew an unconfirmed volunteer at the deadline (docs/api/schedule.md › Confirmation, reminders, expiry).
   */
  | { type: 'response_withdrawn', requestId: number, responseId: number, requesterId: number, wasAccepted: boolean, missedConfirmation?: boolean }
  | { type: 'response_rejected', requestId: number, responseId: number, volunteerId: number }
  | { type: 'request_completed', requestId: number, volunteerId: number, rating: number | null }
  /** docs/api/schedule.md › Confirmation, reminders, expiry: the assigned volunteer confirmed they will come (docs/api/on-behalf.md › A request's history: `confirmed`). */
  | { type: 'request_confirmed', requestId: number, volunteerId: number }
  /** docs/api/schedule.md › Confirmation, reminders, expiry: the requester said the approved request is still needed (docs/api/on-behalf.md › A request's history: `edited`, its expiry moved). */
  | { type: 'request_still_needed', requestId: number }
  /** docs/api/schedule.md › Confirmation, reminders, expiry: the schedule job reminded `people` (the requester and the assigned volunteer) of the window. */
  | { type: 'request_reminded', requestId: number, people: number }
  /** A round, or a catch-up (docs/api/help.md › Catch-up alerts) counting as the request's round `round`, alerted these volunteers at `at` (null: the database's now()). */
  | { type: 'alert_round_ran', requestId: number, round: number, alertedIds: number[], at: Date | null }
  | { type: 'home_location_changed', userId: number }
  /** The volunteer went on duty, or, on duty, moved their point, widened their radius or changed their kinds (docs/api/help.md › Catch-up alerts). */
  | { type: 'availability_widened', userId: number }
  | { type: 'user_blocked', userId: number }
  /** Someone raised a concern (docs/api/help.md › Concerns); `recipientIds`: the moderators and admins who may see it. */
  | { type: 'concern_raised', concernId: number, requestId: number | null, urgent: boolean, recipientIds: number[] }
  /** A moderator resolved a concern; `reporterId` null when the reporter's account was erased (nobody to tell). */
  | { type: 'concern_resolved', concernId: number, requestId: number | null, reporterId: number | null, outcome: string }
  /**
   * An account e-mail of docs/api/accounts.md › Getting back in (a code, or news of a changed password or confirmed address), sent
   * whatever the person's preferences; `sealedCode` (src/lib/sealing.ts, never the code in clear) for
   * the three code messages.
   */
  | { type: 'account_message', userId: number, message: AccountMessage, sealedCode: string | null }
  /** A reply with a code was acted on, or refused (docs/api/messaging.md › Texts › Replies): its answer, by text to the person who replied. */
  | { type: 'reply_answered', userId: number, requestId: number, outcome: ReplyOutcome }
  /**
   * docs/api/schedule.md › Series: the horizon job created an occurrence of an active series, already approved (no
   * request_approved: the series was moderated); `returnOf`: the outbound occurrence of a return trip.
   */
  | { type: 'occurrence_created', requestId: number, seriesId: number, requesterId: number, windowStart: Date, returnOf: number | null }
  /**
   * docs/api/schedule.md › Series: the occurrence is offered first to its series' preferred volunteer alone
   * (series_invitation); its alert rounds wait until `roundsFrom` (the change's time: at once).
   */
  | { type: 'series_invited', requestId: number, seriesId: number, volunteerId: number, windowStart: Date, roundsFrom: Date }
  /** The invited volunteer declined the occurrence: its alert rounds start now if they were still held. */
  | { type: 'invitation_declined', requestId: number, volunteerId: number }
  /** These series lost their preferred volunteer: the held rounds of their occurrences start now. */
  | { type: 'preferred_cleared', seriesIds: number[] }
  /**
   * Carers (docs/api/on-behalf.md): the owner invited an address to act for them, newly or again after a decline; `carerId` the
   * address's account, null when it has none (the invitation is then e-mailed to the address).
   */
  | { type: 'trust_invited', invitationId: number, ownerId: number, carerId: number | null }
  /** docs/api/visit-checks.md: the assigned volunteer checked in at the visit. */
  | { type: 'visit_checked_in', requestId: number, volunteerId: number }
  /**
   * docs/api/visit-checks.md: the visit was checked out, by the volunteer, by the requester's side ("my helper has left") or by the
   * request's completion (`by`); never whether the volunteer was worried, which the requester's side must not learn.
   */
  | { type: 'visit_checked_out', requestId: number, volunteerId: number, by: 'volunteer' | 'requester' | 'completion' }
  /** docs/api/visit-checks.md: the visit job asked the requester's side whether the volunteer had arrived. */
  | { type: 'visit_not_started', requestId: number, volunteerId: number }
  /** docs/api/visit-checks.md: the visit job asked the checked-in volunteer whether they are all right. */
  | { type: 'visit_overdue', requestId: number, volunteerId: number }
  /** The account is being erased (docs/privacy.md › Erasure): its requests and responses are already closed. */
  | { type: 'user_erased', userId: number }

export type EventType = DomainEvent['type']
export type EventOf<K extends EventType> = Extract<DomainEvent, { type: K }>

/** docs/api/on-behalf.md › A request's history: the capacity in which a person made a change to a request. */
export type ActorRole = 'requester' | 'carer' | 'coordinator' | 'volunteer' | 'moderator' | 'admin'
/** docs/api/on-behalf.md: the client a coordinator acted for, or the person a carer acted for. */
export type OnBehalfOf = { client_id: number } | { user_id: number }
/**
 * Acting for someone is one idea (docs/api/on-behalf.md): who acted, in what capacity, and for whom. The requests
 * policy (src/help/requests/acting.ts) decides it; the history reaction records it.
 */
export interface Acting { id: number, role: ActorRole, onBehalfOf: OnBehalfOf | null }
/**
 * Who made a change: a person acting on a request (Acting), a user's id for changes no request's history
 * records (a profile, availability, roles), or null for the service's own jobs (alert rounds).
 */
export type Actor = Acting | number | null

/** The user id behind an actor, or null for the service. */
export const actorId = (actor: Actor): number | null => actor === null || typeof actor === 'number' ? actor : actor.id
