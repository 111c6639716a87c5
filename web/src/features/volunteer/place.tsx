import { useTranslation } from 'react-i18next'

/**
 * Where the help is wanted. Under ADDRESS_PRIVACY=parties someone who is not a party gets the city alone
 * (the API puts it, or an English placeholder, in `address`, with `address_hidden`): say so in words, in
 * the page's language, rather than show the city twice or the API's placeholder.
 */
export function Place ({ request }: { request: { address: string, city: string | null, address_hidden?: boolean } }) {
  const { t } = useTranslation()
  const city = request.city !== null && request.city !== '' ? request.city : undefined
  if (request.address_hidden === true) return <>{city !== undefined ? `${city}. ` : ''}{t('volunteer.request.addressHidden')}</>
  return <>{[request.address, city].filter((part) => part !== undefined && part !== '').join(', ')}</>
}
