import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'

/** Where "Tell us you are worried" leads: the first question, with what the concern is about in the address. */
export function concernStartPath ({ requestId, personId }: { requestId?: number, personId?: number }): string {
  const query = new URLSearchParams()
  if (requestId !== undefined) query.set('request', String(requestId))
  if (personId !== undefined) query.set('person', String(personId))
  return `/concerns/new?${query.toString()}`
}

/**
 * "Tell us you are worried" (docs/web/help.md › Trust on offers): on every request page and every offer, the way to the
 * concerns journey about that request and, when there is one, that person. `about` names the person for
 * screen readers when several such links stand on one page (one per offer).
 */
export function WorriedLink ({ requestId, personId, about }: { requestId?: number, personId?: number, about?: string }) {
  const { t } = useTranslation()
  return (
    <p className='worried-link'>
      <Link href={concernStartPath({ requestId, personId })}>
        {t('concerns.link')}
        {about !== undefined ? <span className='visually-hidden'> {t('concerns.linkAbout', { name: about })}</span> : null}
      </Link>
    </p>
  )
}
