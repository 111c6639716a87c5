import type { Reactions } from '../../events/dispatcher.js'
import { deleteProfileRecordsOf } from './access.repo.js'

export const accessReactions: Reactions = {
  // Erasure (docs/privacy.md › Access records): the erased person's profile log goes with the profile it was
  // about; the records of her requests stay with the requests, and records where she was the viewer stay
  // (the owner's right to know who saw her details), naming her "Former user".
  async user_erased ({ userId }, { tx }) {
    await deleteProfileRecordsOf(tx, userId)
  },
}
