/**
 * The values a request's columns take, as plain types: the repos and searches type their rows with
 * these, and requests.schemas.ts builds the API's schemas on them.
 */
export const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const
export type Urgency = typeof URGENCIES[number]
export const REQUEST_STATUSES = ['pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected'] as const
export type RequestStatus = typeof REQUEST_STATUSES[number]
