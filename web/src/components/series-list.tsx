import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSeriesList, type SeriesOf } from '../api/series'
import { serverProblem } from '../i18n/server-errors'
import { seriesSummary } from '../lib/schedule'

/**
 * A list of regular help (docs/web/schedule.md): each series' title as a link to its page, its plan in words and its
 * status. `empty` is said when there is none; without it an empty list shows nothing ("Your requests").
 */
export function SeriesList ({ of, heading, empty }: { of: SeriesOf, heading: string, empty?: string }) {
  const { t, i18n } = useTranslation()
  const series = useSeriesList(of)
  if (empty === undefined && (series.data === undefined || series.data.length === 0)) return null
  return (
    <section aria-labelledby='series-list-heading'>
      <h2 id='series-list-heading'>{heading}</h2>
      {series.isPending
        ? <p>{t('common.loading')}</p>
        : series.isError
          ? <p className='error-text' role='alert'>{serverProblem(series.error, t, []).message}</p>
          : series.data.length === 0
            ? <p>{empty}</p>
            : (
              <ul className='cards'>
                {series.data.map((item) => (
                  <li key={item.id} className='card'>
                    <h3><Link href={`/series/${item.id}`}>{item.template.title}</Link></h3>
                    <p>{seriesSummary(item, t, i18n.language)}</p>
                    <p>{t('request.statusLine', { status: t(`regular.status.${item.status}`) })}</p>
                  </li>
                ))}
              </ul>
              )}
    </section>
  )
}
