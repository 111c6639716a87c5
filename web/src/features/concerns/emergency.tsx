import { Trans, useTranslation } from 'react-i18next'

/**
 * GOV.UK's warning text: moderators are not an emergency service, so whoever is in danger now needs the
 * emergency number first. The numbers are links, so a phone dials them with one tap.
 */
export function EmergencyWarning () {
  const { t } = useTranslation()
  return (
    <div className='warning-text'>
      <span className='warning-icon' aria-hidden='true'>!</span>
      <p>
        <span className='visually-hidden'>{t('concerns.warning')} </span>
        <Trans i18nKey='concerns.emergency' components={{ first: <a href='tel:112' />, second: <a href={`tel:${t('concerns.secondNumber')}`} /> }} />
      </p>
    </div>
  )
}
