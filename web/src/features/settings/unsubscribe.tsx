import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/errors'
import { focusPageHeading, Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { unsubscribe } from './api'

/** The token from the address's fragment (docs/api/messaging.md › Deliveries and e-mail: `/unsubscribe#token=…`, which the browser never sends to a server). */
function readToken (): string | undefined {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? undefined
  return token === '' ? undefined : token
}

/**
 * The e-mail footer's page (docs/api/messaging.md › Deliveries and e-mail): says what stops, and stops it only when the button is pressed, never on
 * opening (mail scanners open links). No sign-in: the signed token names the person and the kind of e-mail.
 */
export function UnsubscribePage () {
  const { t } = useTranslation()
  const success = useSuccess()
  const [token, setToken] = useState(readToken)
  // Kept in the page only, and gone from the address bar, so it is not left in the history for the next person here.
  // A second link opened in the same tab changes only the fragment (no new page): it is read the same way.
  useEffect(() => {
    const take = () => {
      const found = readToken()
      if (found !== undefined) setToken(found)
      if (window.location.hash !== '') history.replaceState(history.state, '', window.location.pathname + window.location.search)
    }
    take()
    window.addEventListener('hashchange', take)
    return () => { window.removeEventListener('hashchange', take) }
  }, [])
  const stop = useMutation({
    mutationFn: () => unsubscribe(token ?? ''),
    onSuccess: () => {
      success(t('settings.unsubscribe.done'))
      // The page now says it is done: focus its new h1, as after a change of page.
      requestAnimationFrame(() => { focusPageHeading() })
    },
  })
  const invalid = stop.error instanceof ApiError && stop.error.status === 400
  return (
    <Page title={stop.isSuccess ? t('settings.unsubscribe.doneTitle') : t('settings.unsubscribe.title')} hasErrors={stop.isError}>
      {stop.isSuccess
        ? <p><Link href='/settings/notifications'>{t('settings.unsubscribe.settingsLink')}</Link></p>
        : (
          <>
            <p>{t('settings.unsubscribe.intro')}</p>
            <p>{t('settings.unsubscribe.account')}</p>
            {token === undefined
              ? <p className='error-text'>{t('settings.unsubscribe.noToken')}</p>
              : <Button className='button' onPress={() => { if (!stop.isPending) stop.mutate() }}>{t('settings.unsubscribe.button')}</Button>}
            {stop.isError
              ? <p className='error-text' role='alert'>{invalid ? t('settings.unsubscribe.invalid') : serverProblem(stop.error, t).message}</p>
              : null}
            <p><Link href='/settings/notifications'>{t('settings.unsubscribe.settingsLink')}</Link></p>
          </>
          )}
    </Page>
  )
}
