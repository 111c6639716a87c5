import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { formatDate } from '../../lib/format'
import { serverProblem } from '../../i18n/server-errors'
import { DEVICES_KEY, listDevices, removeDevice, type Device } from './api'
import { allowAlertsHere, PushSetupError, subscribedHostHere } from './push'

const HERE_KEY = ['push-subscribed-here'] as const

/** One device on the list: its push service's host (never the full endpoint), when added, the last alert that reached it. */
function DeviceItem ({ device, onRemoved }: { device: Device, onRemoved: () => void }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const success = useSuccess()
  const added = formatDate(device.created_at, i18n.language)
  const remove = useMutation({
    mutationFn: () => removeDevice(device.id),
    onSuccess: async () => {
      success(t('settings.device.removed'))
      onRemoved()
      await client.invalidateQueries({ queryKey: DEVICES_KEY })
      await client.invalidateQueries({ queryKey: HERE_KEY })
    },
  })
  return (
    <li>
      <article className='card' aria-labelledby={`device-${device.id}`}>
        <h4 id={`device-${device.id}`} className='card-heading'>{t('settings.device.device', { host: device.endpoint_host })}</h4>
        <dl className='facts'>
          <div><dt>{t('settings.device.added')}</dt><dd>{added}</dd></div>
          <div><dt>{t('settings.device.lastSent')}</dt><dd>{device.last_success_at === null ? t('settings.device.never') : formatDate(device.last_success_at, i18n.language)}</dd></div>
        </dl>
        <Button className='button secondary' aria-label={t('settings.device.removeName', { host: device.endpoint_host, date: added })} onPress={() => { if (!remove.isPending) remove.mutate() }}>
          {t('settings.device.remove')}
        </Button>
        {remove.isError ? <p className='error-text' role='alert'>{serverProblem(remove.error, t).message}</p> : null}
      </article>
    </li>
  )
}

/**
 * "Allow alerts on this device" (docs/web/messaging.md) and this account's devices. What went wrong is said in words, beside
 * the button, and spoken; focus stays on the button so the person can read on or try again.
 */
export function DeviceAlerts () {
  const { t } = useTranslation()
  const client = useQueryClient()
  const success = useSuccess()
  const announce = useAnnounce()
  const listHeading = useRef<HTMLHeadingElement>(null)
  const devices = useQuery({ queryKey: DEVICES_KEY, queryFn: ({ signal }) => listDevices(signal) })
  const here = useQuery({ queryKey: HERE_KEY, queryFn: subscribedHostHere, retry: false })
  // This browser holds a subscription the service still lists (by host: the list never shows whole endpoints).
  const onHere = here.data != null && devices.data?.some((device) => device.endpoint_host === here.data) === true
  const allow = useMutation({
    mutationFn: allowAlertsHere,
    onSuccess: async () => {
      success(t('settings.device.allowed'))
      await client.invalidateQueries({ queryKey: DEVICES_KEY })
      await client.invalidateQueries({ queryKey: HERE_KEY })
    },
    onError: (error) => { announce(problemText(error)) },
  })
  const problemText = (error: unknown): string => error instanceof PushSetupError ? t(`settings.device.cannot.${error.problem}`) : serverProblem(error, t).message
  return (
    <section aria-labelledby='device-heading'>
      <h2 id='device-heading'>{t('settings.device.title')}</h2>
      <p>{t('settings.device.intro')}</p>
      {onHere ? <p><strong>{t('settings.device.onHere')}</strong></p> : null}
      <Button className='button' onPress={() => { if (!allow.isPending) allow.mutate() }}>{t('settings.device.allow')}</Button>
      {allow.isError ? <p className='error-text push-problem'>{problemText(allow.error)}</p> : null}
      <h3 id='devices-heading' ref={listHeading} tabIndex={-1}>{t('settings.device.list')}</h3>
      {devices.isPending
        ? <p>{t('common.loading')}</p>
        : devices.isError
          ? <p className='error-text'>{serverProblem(devices.error, t).message}</p>
          : devices.data.length === 0
            ? <p>{t('settings.device.none')}</p>
            : (
              <ul className='cards' aria-labelledby='devices-heading'>
                {/* After a removal focus goes to the list's heading: the button it was on is gone. */}
                {devices.data.map((device) => <DeviceItem key={device.id} device={device} onRemoved={() => listHeading.current?.focus()} />)}
              </ul>
              )}
    </section>
  )
}
