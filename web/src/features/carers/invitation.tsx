import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate } from 'react-router'
import { useSession } from '../../api/use-session'
import { Page } from '../../components/page'
import './carers.css'

/**
 * Where an invitation e-mailed to an address without an account leads (docs/api.md › Carers). The link carries
 * nothing, so the page cannot say who invited: it tells the person to create an account with the invited address
 * (the invitation then waits on the start page) or to sign in, and then shows the invitation on "People I help".
 */
export function InvitationPage () {
  const { t } = useTranslation()
  const { status } = useSession()
  if (status === 'signed-in') return <Navigate to='/people-i-help' replace />
  return (
    <Page title={t('carers.invitation.title')}>
      <p>{t('carers.invitation.text')}</p>
      <p>{t('carers.invitation.nothing')}</p>
      <p>{t('carers.invitation.newHere')}</p>
      <p><Link href='/register' className='button'>{t('carers.invitation.register')}</Link></p>
      <p>{t('carers.invitation.haveAccount')}</p>
      <p><Link href={`/sign-in?next=${encodeURIComponent('/people-i-help')}`} className='button secondary'>{t('carers.invitation.signIn')}</Link></p>
    </Page>
  )
}
