import type { UseQueryResult } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { phoneState, TEXTS_SECTION, type OwnPhone } from '../../api/phone'
import { useSectionTarget } from '../../components/section-target'
import { serverProblem } from '../../i18n/server-errors'
import { ChannelChoice, type ChannelState } from './channel-fields'
import { TEXT_TYPES } from './types'

const WHY_NOT = { none: 'settings.smsNone', stopped: 'settings.smsStopped', unconfirmed: 'settings.smsUnconfirmed' } as const

/**
 * "Texts to your phone" (docs/web/messaging.md): texts on or off and their types, usable only while texts can go to the
 * profile's phone (GET /users/me/phone: a confirmed mobile number that has not replied STOP); otherwise why not, in a
 * sentence, and a link to the profile's texts section, where it is put right. The profile links here (`#texts`).
 */
export function TextsFields ({ phone, state }: { phone: UseQueryResult<OwnPhone>, state: ChannelState }) {
  const { t } = useTranslation()
  useSectionTarget(TEXTS_SECTION, phone.data !== undefined)
  const where = phone.data !== undefined ? phoneState(phone.data) : undefined
  return (
    <section aria-labelledby={`${TEXTS_SECTION}-heading`} className='stack'>
      <h2 id={`${TEXTS_SECTION}-heading`} tabIndex={-1} className='section-target'>{t('settings.sms')}</h2>
      {phone.isPending
        ? <p>{t('common.loading')}</p>
        : phone.isError
          ? <p className='error-text'>{serverProblem(phone.error, t).message}</p>
          : where === 'ready'
            ? <ChannelChoice channel='sms' choices={TEXT_TYPES} state={state} />
            : (
              <>
                <p>{t(WHY_NOT[where ?? 'unconfirmed'])}</p>
                <p><Link href={`/profile#${TEXTS_SECTION}`}>{t('settings.smsLink')}</Link></p>
              </>
              )}
    </section>
  )
}
