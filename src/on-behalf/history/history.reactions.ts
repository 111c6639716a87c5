import type { ReactionContext, Reactions } from '../../events/dispatcher.js'
import type { ActorRole } from '../../events/events.js'
import { insertCancellation, insertEntries, type HistoryAction, type NewEntry } from './history.repo.js'

/** Who did it, as stored: the change's actor (events.ts Actor), or the service's own job. */
type Who = Pick<NewEntry, 'actorId' | 'actorRole' | 'clientId' | 'userId'>

const SERVICE: Who = { actorId: null, actorRole: 'service', clientId: null, userId: null }

/**
 * The change's actor. An Acting says its capacity; a bare user id is a change made with no request policy in
 * between (an account's erasure, a series change by its requester), whose capacity the event itself gives:
 * `bare` (the requester for her requests, the volunteer for their offers).
 */
function who ({ actor }: ReactionContext, bare: ActorRole): Who {
  if (actor === null) return SERVICE
  if (typeof actor === 'number') return { actorId: actor, actorRole: bare, clientId: null, userId: null }
  const behalf = actor.onBehalfOf
  return {
    actorId: actor.id,
    actorRole: actor.role,
    clientId: behalf !== null && 'client_id' in behalf ? behalf.client_id : null,
    userId: behalf !== null && 'user_id' in behalf ? behalf.user_id : null,
  }
}

/** The change's channel beside the details, when it came by text (docs/api/on-behalf.md › A request's history). */
const via = (context: ReactionContext): Record<string, unknown> => context.via === undefined ? {} : { via: context.via }

async function write (context: ReactionContext, requestId: number, action: HistoryAction, by: Who, details: Record<string, unknown> = {}): Promise<void> {
  await insertEntries(context.tx, [{ requestId, at: context.at, action, ...by, details: { ...details, ...via(context) } }])
}

/**
 * docs/api/on-behalf.md › A request's history: each change of a request's lifecycle is written to its history in the change's transaction.
 * Listed first in src/areas.ts, so what reads the history later in the same change (the
 * notification writer's coordinators of a client's request) finds this change's entry. Details never hold
 * names or free text (a rejection's comment, an offer's message): only ids, counts and reasons.
 */
export const historyReactions: Reactions = {
  async request_created ({ requestId }, context) {
    await write(context, requestId, 'created', who(context, 'requester'))
  },
  // docs/api/schedule.md › Series: the service created the series' occurrence (at approval, after a change, or the horizon job).
  async occurrence_created ({ requestId, seriesId, returnOf }, context) {
    await write(context, requestId, 'created', SERVICE, { series_id: seriesId, ...(returnOf === null ? {} : { return_of: returnOf }) })
  },
  async request_approved ({ requestId }, context) {
    await write(context, requestId, 'approved', who(context, 'moderator'))
  },
  async request_rejected ({ requestId }, context) {
    await write(context, requestId, 'rejected', who(context, 'moderator'))
  },
  async response_created ({ requestId, responseId }, context) {
    await write(context, requestId, 'offer_made', who(context, 'volunteer'), { response_id: responseId })
  },
  // The volunteer, their erasure (a bare id), or the schedule job at a missed confirmation (the service).
  async response_withdrawn ({ requestId, responseId, wasAccepted, missedConfirmation }, context) {
    const details = { response_id: responseId, was_accepted: wasAccepted, ...(missedConfirmation === true ? { missed_confirmation: true } : {}) }
    await write(context, requestId, 'offer_withdrawn', who(context, 'volunteer'), details)
  },
  async response_rejected ({ requestId, responseId }, context) {
    await write(context, requestId, 'offer_rejected', who(context, 'requester'), { response_id: responseId })
  },
  // The chosen offer and each other pending one, all by the accepting actor; a series' preferred volunteer
  // accepted at once by the requester's standing choice (auto_accept_preferred) is the service's doing.
  async response_accepted ({ requestId, responseId, rejected }, context) {
    const actor = context.actor
    const automatic = actor !== null && typeof actor !== 'number' && actor.role === 'volunteer'
    const by = automatic ? SERVICE : who(context, 'requester')
    await insertEntries(context.tx, [
      { requestId, at: context.at, action: 'accepted', ...by, details: { response_id: responseId, ...(automatic ? { automatic: true } : {}), ...via(context) } },
      ...rejected.map((other) => ({ requestId, at: context.at, action: 'offer_rejected' as const, ...by, details: { response_id: other.responseId } })),
    ])
  },
  async request_confirmed ({ requestId }, context) {
    await write(context, requestId, 'confirmed', who(context, 'volunteer'))
  },
  // The one change of a request in place (docs/api/on-behalf.md › A request's history): its expiry moved by "still needed".
  async request_still_needed ({ requestId }, context) {
    await write(context, requestId, 'edited', who(context, 'requester'), { still_needed: true })
  },
  async request_reminded ({ requestId, people }, context) {
    await write(context, requestId, 'reminded', SERVICE, { people })
  },
  // A bare id is the requester's own erasure, or a series change or end by its requester.
  async request_cancelled ({ requestId }, context) {
    await insertCancellation(context.tx, { requestId, at: context.at, ...who(context, 'requester') }, via(context))
  },
  // Whether a rating was given, not its score or comment: those are the volunteer's (GET /users/{id}).
  async request_completed ({ requestId, rating }, context) {
    await write(context, requestId, 'completed', who(context, 'requester'), { rated: rating !== null })
  },
  // How many were alerted, never who (docs/api/on-behalf.md › A request's history); a catch-up alert (docs/api/help.md › Catch-up alerts) counts as its round.
  async alert_round_ran ({ requestId, round, alertedIds }, context) {
    await write(context, requestId, 'alert_round', SERVICE, { round, alerted: alertedIds.length })
  },
  // docs/api/visit-checks.md: the volunteer checks in and out themselves; "my helper has left" is the requester's side
  // (a bare id never: the visits service always says who acted); a completion's check-out is by the completing actor.
  async visit_checked_in ({ requestId }, context) {
    await write(context, requestId, 'checked_in', who(context, 'volunteer'))
  },
  async visit_checked_out ({ requestId, by }, context) {
    await write(context, requestId, 'checked_out', who(context, by === 'volunteer' ? 'volunteer' : 'requester'), { by })
  },
  async visit_not_started ({ requestId }, context) {
    await write(context, requestId, 'visit_not_started', SERVICE)
  },
  async visit_overdue ({ requestId }, context) {
    await write(context, requestId, 'visit_overdue', SERVICE)
  },
}
