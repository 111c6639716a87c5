import type { Reactions } from '../../events/dispatcher.js'
import { cancelOpenResponses } from './responses.repo.js'

export const responsesReactions: Reactions = {
  // A cancelled request's pending and accepted responses are cancelled with it (docs/api/help.md
  // lifecycle). The change has locked the request row already: responses come after it (README.md).
  async request_cancelled ({ requestId }, { tx, record }) {
    const volunteerIds = await cancelOpenResponses(tx, requestId)
    if (volunteerIds.length > 0) record({ type: 'open_responses_cancelled', requestId, volunteerIds: volunteerIds.map(Number) })
  },
}
