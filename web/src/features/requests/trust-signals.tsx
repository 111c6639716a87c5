import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { localeOf } from '../../lib/format'

/** What the API tells the requester about a volunteer who offers help (docs/api/help.md › Volunteer responses, completion and ratings, VolunteerResponse.volunteer). */
export interface OfferingVolunteer {
  volunteer_rating: number | null
  completed_requests_count: number
  checks: string[]
  member_since: string
}

/**
 * The volunteer's trust signals as sentences a person reads aloud well: "Checked: identity, background.
 * Helped 12 times, rated 4.8 of 5. Member since March 2026." Every case is said in words (no checks, never
 * helped, not rated), since a missing line would be read as nothing to worry about.
 */
export function trustSentences (t: TFunction, language: string, volunteer: OfferingVolunteer): string[] {
  const locale = localeOf(language)
  const checks = volunteer.checks.map((kind) => t(`trust.kinds.${kind}`, { defaultValue: kind }))
  const count = volunteer.completed_requests_count
  const times = new Intl.NumberFormat(locale).format(count)
  const rating = volunteer.volunteer_rating === null
    ? undefined
    : new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(volunteer.volunteer_rating)
  const since = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(new Date(volunteer.member_since))
  return [
    checks.length > 0 ? t('trust.checked', { kinds: checks.join(', ') }) : t('trust.notChecked'),
    count === 0
      ? (rating === undefined ? t('trust.neverHelped') : t('trust.ratedOnly', { rating }))
      : (rating === undefined ? t('trust.helpedUnrated', { count, times }) : t('trust.helpedRated', { count, times, rating })),
    t('trust.memberSince', { date: since }),
  ]
}

/** The trust signals of one offer, under the volunteer's name on the requester's request page. */
export function TrustSignals ({ volunteer }: { volunteer: OfferingVolunteer }) {
  const { t, i18n } = useTranslation()
  return <p className='trust-signals'>{trustSentences(t, i18n.language, volunteer).join(' ')}</p>
}
