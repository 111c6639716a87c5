import { useTranslation } from 'react-i18next'

/**
 * What a section says while its answer has not come: "Loading…", or, when the query waits for a connection
 * and nothing was kept from before (TanStack Query pauses it), that it comes once the person is back online
 * rather than a "Loading…" that never ends.
 */
export function Loading ({ query }: { query: { fetchStatus: string } }) {
  const { t } = useTranslation()
  return <p>{query.fetchStatus === 'paused' ? t('offline.notKept') : t('common.loading')}</p>
}
