import { useTranslation } from 'react-i18next'
import { localeOf } from '../../lib/format'
import type { By } from './api'

interface Row {
  label: string
  requests_created: number
  requests_completed: number
  requests_cancelled: number
  requests_expired: number
  people_helped: number | null
  active_volunteers: number | null
  hours_of_help: number
  median_minutes_to_first_offer: number | null
  median_minutes_to_accept: number | null
  suppressed?: string[]
}

const COLUMNS = ['requests_created', 'requests_completed', 'requests_cancelled', 'requests_expired', 'people_helped', 'active_volunteers', 'hours_of_help', 'median_minutes_to_first_offer', 'median_minutes_to_accept'] as const

/**
 * The chart's figures and the rest of the summary as a table (the chart's full text alternative): one row a
 * period. A suppressed count (1 to 4, behalf.md § 4) reads "fewer than 5"; a median without data, "none".
 * Wide, so it scrolls sideways in its own region on a phone, which the keyboard can reach.
 */
export function SummaryTable ({ periods, by, below }: { periods: Row[], by: By, below: number }) {
  const { t, i18n } = useTranslation()
  const number = new Intl.NumberFormat(localeOf(i18n.language), { maximumFractionDigits: 1 })
  const cell = (row: Row, column: typeof COLUMNS[number]) => {
    const value = row[column]
    if (value !== null) return number.format(value)
    return row.suppressed?.includes(column) === true || column === 'people_helped' || column === 'active_volunteers'
      ? t('reports.fewer', { count: below })
      : t('reports.none')
  }
  return (
    <div className='table-scroll' role='region' aria-labelledby='report-table-caption' tabIndex={0}>
      <table className='report-table'>
        <caption id='report-table-caption'>{t(by === 'week' ? 'reports.table.captionWeeks' : 'reports.table.captionMonths')}</caption>
        <thead>
          <tr>
            <th scope='col'>{t(by === 'week' ? 'reports.table.week' : 'reports.table.month')}</th>
            {COLUMNS.map((column) => <th key={column} scope='col'>{t(`reports.table.${column}`)}</th>)}
          </tr>
        </thead>
        <tbody>
          {periods.map((row) => (
            <tr key={row.label}>
              <th scope='row'>{row.label}</th>
              {COLUMNS.map((column) => <td key={column}>{cell(row, column)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
