import type { TFunction } from 'i18next'

/** Names the API sends as values (statuses, urgencies, roles, kinds), in the page's language when known. */
export const requestStatus = (t: TFunction, status: string): string => t(`volunteer.status.${status}`, { defaultValue: status })
export const responseStatus = (t: TFunction, status: string): string => t(`volunteer.responseStatus.${status}`, { defaultValue: status })
export const urgencyText = (t: TFunction, urgency: string | null): string => urgency === null ? t('volunteer.urgency.none') : t(`volunteer.urgency.${urgency}`, { defaultValue: urgency })
export const roleName = (t: TFunction, name: string): string => t(`roles.${name}`, { defaultValue: name })
/** Kinds of help arrive by their (English) name in lists; shown in the page's language when known. */
export const kindText = (t: TFunction, name: string): string => t(`volunteer.kinds.${name}`, { defaultValue: name })
/** What moderators decided about a concern (docs/api/help.md › Concerns), short, for moderators. */
export const concernOutcome = (t: TFunction, outcome: string): string => t(`concerns.outcomes.${outcome}`, { defaultValue: outcome })
/** The same decision told to the person who raised the concern, in a sentence. */
export const concernOutcomeSentence = (t: TFunction, outcome: string): string => t(`concerns.outcomeSentences.${outcome}`, { defaultValue: outcome })
/** A kind of check (docs/api/accounts.md › Checks that vet volunteers: identity, background, training, reference). */
export const checkKind = (t: TFunction, kind: string): string => t(`checks.kinds.${kind}`, { defaultValue: kind })
