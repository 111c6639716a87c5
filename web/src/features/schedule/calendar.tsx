import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import '../../components/journeys.css'

/**
 * "Add to my calendar" (docs/api/schedule.md › Calendar feed and docs/web/schedule.md): a private address for a calendar program, made here. The API
 * never gives an address back after it was made (it keeps only a hash), so the page shows it only right after
 * making it; "Make a new address" replaces it (the old one stops working) and "Stop sharing" ends it.
 */
export function CalendarPage () {
  const { t } = useTranslation()
  const success = useSuccess()
  const announce = useAnnounce()
  const [url, setUrl] = useState<string | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [copied, setCopied] = useState<string | undefined>(undefined)
  const field = useRef<HTMLInputElement>(null)
  // The address is what the person came for: once shown (made or made anew), focus on it, selected, ready to copy by keyboard too.
  const [made, setMade] = useState(0)
  useEffect(() => {
    if (made === 0) return
    field.current?.focus()
    field.current?.select()
  }, [made])
  const fail = (error: unknown) => {
    const message = serverProblem(error, t).message
    setProblem(message)
    announce(message)
  }
  const make = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/users/me/calendar', {})),
    onSuccess: (answer) => {
      const renewed = url !== undefined
      setProblem(undefined)
      setCopied(undefined)
      setUrl(answer.url)
      success(t(renewed ? 'calendar.renewed' : 'calendar.made'))
      setMade((count) => count + 1)
    },
    onError: fail,
  })
  const stop = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/users/me/calendar', {})),
    onSuccess: () => {
      setProblem(undefined)
      setUrl(undefined)
      success(t('calendar.stopped'))
      document.querySelector<HTMLElement>('main h1')?.focus()
    },
    onError: fail,
  })
  const copy = () => {
    if (url === undefined) return
    // The clipboard may be refused (an insecure page, a denied permission): then the address is selected to copy by hand.
    navigator.clipboard.writeText(url).then(() => {
      setCopied(t('calendar.copied'))
      announce(t('calendar.copied'))
    }, () => {
      field.current?.select()
      setCopied(t('calendar.copyFailed'))
      announce(t('calendar.copyFailed'))
    })
  }
  return (
    <Page title={t('calendar.title')}>
      <p>{t('calendar.intro')}</p>
      <p>{t('calendar.private')}</p>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      {url === undefined
        ? (
          <>
            <p>{t('calendar.before')}</p>
            <Button className='button' onPress={() => { if (!make.isPending) make.mutate() }}>{t('calendar.make')}</Button>
          </>
          )
        : (
          <section aria-labelledby='calendar-address-heading' className='stack'>
            <h2 id='calendar-address-heading'>{t('calendar.address')}</h2>
            <div className='field'>
              <label htmlFor='calendar-url'>{t('calendar.addressLabel')}</label>
              <span id='calendar-url-hint' className='hint'>{t('calendar.how')}</span>
              <input id='calendar-url' ref={field} className='calendar-url' readOnly value={url} aria-describedby='calendar-url-hint' />
            </div>
            <Button className='button' onPress={copy}>{t('calendar.copy')}</Button>
            {copied !== undefined ? <p>{copied}</p> : null}
            <h2>{t('calendar.renewHeading')}</h2>
            <p>{t('calendar.renewText')}</p>
            <Button className='button secondary' onPress={() => { if (!make.isPending) make.mutate() }}>{t('calendar.renew')}</Button>
          </section>
          )}
      <h2>{t('calendar.stopHeading')}</h2>
      <p>{t('calendar.stopText')}</p>
      <Button className='button secondary' onPress={() => { if (!stop.isPending) stop.mutate() }}>{t('calendar.stop')}</Button>
      <p><Link href='/coming-help'>{t('coming.title')}</Link></p>
    </Page>
  )
}
