import { useId } from 'react'
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
 * period. A suppressed count (1 to 4, docs/api/on-behalf.md › Reports for funders) reads "fewer than 5"; a median without data, "none".
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
    <PeriodTable
      caption={t(by === 'week' ? 'reports.table.captionWeeks' : 'reports.table.captionMonths')}
      by={by}
      columns={COLUMNS.map((column) => t(`reports.table.${column}`))}
      rows={periods.map((row) => ({ label: row.label, cells: COLUMNS.map((column) => cell(row, column)) }))}
    />
  )
}

/**
 * A table of periods (the summary's, and the breakdowns by kind and urgency): a caption, one row a period headed
 * by its name, the figures right-aligned (reports.css). Wider than a phone, it scrolls sideways in its own
 * region, named by the caption and reached by Tab, so the page itself never does.
 */
export function PeriodTable ({ caption, by, columns, rows }: { caption: string, by: By, columns: string[], rows: Array<{ label: string, cells: string[] }> }) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <div className='table-scroll' role='region' aria-labelledby={id} tabIndex={0}>
      <table className='report-table'>
        <caption id={id}>{caption}</caption>
        <thead>
          <tr>
            <th scope='col'>{t(by === 'week' ? 'reports.table.week' : 'reports.table.month')}</th>
            {columns.map((column) => <th key={column} scope='col'>{column}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope='row'>{row.label}</th>
              {row.cells.map((cell, index) => <td key={columns[index] ?? index}>{cell}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
