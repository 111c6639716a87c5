import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { getSettings, SETTINGS_KEY } from './api'
import { DeviceAlerts } from './devices'
import { SentToYou } from './sent'
import { SettingsForm } from './settings-form'
import '../../components/journeys.css'
import './settings.css'

/** /settings/notifications (docs/web/messaging.md): channels, types, quiet hours; this device's alerts; what was sent. */
export function NotificationSettingsPage () {
  const { t } = useTranslation()
  const saved = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => getSettings(signal) })
  const [hasErrors, setHasErrors] = useState(false)
  return (
    <Page title={t('settings.title')} hasErrors={hasErrors}>
      <p>{t('settings.intro')}</p>
      <p>{t('settings.accountAlways')}</p>
      {saved.isPending
        ? <p>{t('common.loading')}</p>
        : saved.isError
          ? <p className='error-text'>{serverProblem(saved.error, t).message} <Button className='link-button' onPress={() => { void saved.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : <SettingsForm saved={saved.data} onProblems={setHasErrors} />}
      <DeviceAlerts />
      <SentToYou />
    </Page>
  )
}
