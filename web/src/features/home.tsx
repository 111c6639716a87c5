import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useActingFor } from '../api/acting-for'
import { useSession } from '../api/use-session'
import { Page } from '../components/page'

/**
 * Invitations to help someone that wait for an answer, first on the start page: a person who registered with the
 * address an invitation was e-mailed to finds it here, each with the way to answer it on "People I help".
 */
function WaitingInvitations () {
  const { t } = useTranslation()
  const waiting = useActingFor().data?.filter((item) => item.status === 'invited') ?? []
  if (waiting.length === 0) return null
  return (
    <section aria-labelledby='home-invitations'>
      <h2 id='home-invitations'>{t('home.invitationsHeading')}</h2>
      <ul className='cards'>
        {waiting.map((item) => (
          <li key={item.id} className='card'>
            <p>{t('home.invitation', { name: item.name })}</p>
            <p><Link href='/people-i-help'>{t('home.answerInvitation', { name: item.name })}</Link></p>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function HomePage () {
  const { t } = useTranslation()
  const { user } = useSession()
  return (
    <Page title={user !== undefined ? t('home.greeting', { name: user.first_name }) : t('app.name')}>
      <p>{t('home.intro')}</p>
      {user === undefined
        ? (
          <ul className='actions'>
            <li><Link href='/register' className='button'>{t('account.registerTitle')}</Link></li>
            <li><Link href='/sign-in' className='button secondary'>{t('account.signInTitle')}</Link></li>
          </ul>
          )
        : (
          <>
            <WaitingInvitations />
            <ul className='actions'>
              <li><Link href='/ask' className='button'>{t('ask.title')}</Link></li>
              <li><Link href='/requests/mine' className='button secondary'>{t('mine.title')}</Link></li>
              <li><Link href='/coming-help' className='button secondary'>{t('coming.title')}</Link></li>
              <li><Link href='/profile' className='button secondary'>{t('profile.title')}</Link></li>
              <li><Link href='/people-who-help-me' className='button secondary'>{t('carers.helpers.title')}</Link></li>
              <li><Link href='/people-i-help' className='button secondary'>{t('carers.helping.title')}</Link></li>
            </ul>
          </>
          )}
    </Page>
  )
}

export function NotFoundPage () {
  const { t } = useTranslation()
  return (
    <Page title={t('notFound.title')}>
      <p>{t('notFound.text')}</p>
      <p><Link href='/'>{t('notFound.home')}</Link></p>
    </Page>
  )
}
