import type { Origin } from '../events/dispatcher.js'
import type { ReplyOutcome } from '../events/notifications.js'
import type { Principal, PrincipalSource } from '../lib/principal.js'
import { AppError, REQUEST_NOT_FOUND } from '../lib/errors.js'
import type { RequestsService } from './requests/requests.service.js'
import { NOT_OPEN, type ResponsesService } from './responses/responses.service.js'

/**
 * YES and NO by text (docs/api/messaging.md › Texts › Replies): an offer, and the requester's cancel, through the
 * services the API calls, with every rule of theirs. A refusal (the 4xx the API would answer) becomes the
 * outcome its answer text names; anything else is thrown on, so the reply is tried again.
 */
export class HelpReplies {
  constructor (private readonly principals: PrincipalSource, private readonly responses: ResponsesService, private readonly requests: RequestsService) {}

  async offer (userId: number, requestId: number, origin: Origin): Promise<ReplyOutcome> {
    return await refusedAs(this.principals, userId, OFFER_REFUSALS, async (volunteer) => {
      await this.responses.respond(volunteer, requestId, {}, origin)
      return 'offered'
    })
  }

  async cancel (userId: number, requestId: number, origin: Origin): Promise<ReplyOutcome> {
    return await refusedAs(this.principals, userId, CANCEL_REFUSALS, async (requester) => {
      await this.requests.cancel(requester, requestId, origin)
      return 'cancelled'
    })
  }
}

/** The API's refusals, by their texts, in the words of an answer; any other 4xx is 'cannot'. */
const OFFER_REFUSALS: Readonly<Record<string, ReplyOutcome>> = {
  [NOT_OPEN]: 'not_open',
  [REQUEST_NOT_FOUND]: 'not_open',
  'already responded to this request': 'already_offered',
  'your checks do not allow offering help yet': 'checks',
}
const CANCEL_REFUSALS: Readonly<Record<string, ReplyOutcome>> = {
  'request cannot be cancelled in its current status': 'not_open',
  [REQUEST_NOT_FOUND]: 'not_open',
}

/**
 * `act`'s outcome as the person `userId`, or the refusal it met in words of REPLY_OUTCOMES. A blocked or erased
 * person acts on nothing, as their tokens do not: 'cannot'.
 */
export async function refusedAs (
  principals: PrincipalSource, userId: number, refusals: Readonly<Record<string, ReplyOutcome>>, act: (person: Principal) => Promise<ReplyOutcome>
): Promise<ReplyOutcome> {
  const person = await principals.get(userId)
  if (person === undefined) return 'cannot'
  try {
    return await act(person)
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error
    return refusals[error.text] ?? 'cannot'
  }
}
