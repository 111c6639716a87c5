import type { TFunction } from 'i18next'
import { requestStatus } from '../../i18n/labels'

/**
 * Where the request stands, said from the volunteer's side: their own accepted job is "You are helping",
 * not the requester's "A volunteer is helping".
 */
export function requestFromVolunteerSide (t: TFunction, offerStatus: string, requestStatusValue: string): string {
  if (offerStatus === 'accepted' && requestStatusValue === 'in_progress') return t('volunteer.offers.youAreHelping')
  if (offerStatus === 'accepted' && requestStatusValue === 'completed') return t('volunteer.offers.youHelped')
  return requestStatus(t, requestStatusValue)
}
