import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useMyRoles } from '../api/use-my-roles'
import { Page } from './page'

/**
 * A page for people with a role: others (who reach it by typing its address) are told in words,
 * rather than seeing the API's 403 as a broken page.
 */
export function RoleGate ({ allowed, children }: { allowed: (roles: string[] | undefined) => boolean, children: ReactNode }) {
  const { t } = useTranslation()
  const roles = useMyRoles()
  if (roles === undefined) return <p>{t('common.loading')}</p>
  if (!allowed(roles)) {
    return (
      <Page title={t('volunteer.noAccess.title')}>
        <p>{t('volunteer.noAccess.text')}</p>
      </Page>
    )
  }
  return children
}
