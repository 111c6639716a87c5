import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSession } from '../api/use-session'
import { Page } from '../components/page'

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
          <ul className='actions'>
            <li><Link href='/ask' className='button'>{t('ask.title')}</Link></li>
            <li><Link href='/requests/mine' className='button secondary'>{t('mine.title')}</Link></li>
            <li><Link href='/coming-help' className='button secondary'>{t('coming.title')}</Link></li>
            <li><Link href='/profile' className='button secondary'>{t('profile.title')}</Link></li>
            <li><Link href='/people-who-help-me' className='button secondary'>{t('carers.helpers.title')}</Link></li>
            <li><Link href='/people-i-help' className='button secondary'>{t('carers.helping.title')}</Link></li>
          </ul>
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
