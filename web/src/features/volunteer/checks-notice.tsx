import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useAccountSettings } from '../../api/account-settings'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { checkKind } from '../../i18n/labels'
import { localeOf } from '../../lib/format'
import './checks-notice.css'

/**
 * Under VOLUNTEER_CHECKS (docs/api/accounts.md › Checks that vet volunteers), says where a volunteer goes on duty
 * which checks the service asks and which of hers are missing, and who records them, before an offer is refused:
 * without them she is neither alerted nor able to offer. GOV.UK's notification banner (important), a region named
 * by its heading. Nothing when no check is asked or all are valid; her valid kinds come from her own profile.
 */
export function ChecksNotice () {
  const { t, i18n } = useTranslation()
  const settings = useAccountSettings()
  const me = useQuery({ queryKey: ['get', '/api/v1/users/me'], queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })) })
  const asked = settings.data?.volunteer_checks ?? []
  if (asked.length === 0 || me.data === undefined) return null
  const missing = asked.filter((kind) => !me.data.checks.includes(kind))
  if (missing.length === 0) return null
  const list = (kinds: string[]) => new Intl.ListFormat(localeOf(i18n.language), { type: 'conjunction' }).format(kinds.map((kind) => checkKind(t, kind)))
  return (
    <section className='checks-notice' aria-labelledby='checks-notice-title'>
      <h2 id='checks-notice-title' className='checks-notice-title'>{t('availability.checks.title')}</h2>
      <p>{t('availability.checks.asked', { count: asked.length, kinds: list(asked) })}</p>
      <p>{t('availability.checks.missing', { count: missing.length, kinds: list(missing) })}</p>
      <p>{t('availability.checks.who')}</p>
    </section>
  )
}
