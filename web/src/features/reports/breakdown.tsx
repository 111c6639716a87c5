import { useTranslation } from 'react-i18next'
import { kindText, urgencyText } from '../../i18n/labels'
import { localeOf } from '../../lib/format'
import type { By } from './api'
import { PeriodTable } from './table'

export type Group = 'by_type' | 'by_urgency'
interface Row { label: string, by_type: Record<string, number | null>, by_urgency: Record<string, number | null> }

/** The group's names in the API's order (types by id, urgencies low to urgent), over every period. */
export function groupNames (periods: readonly Row[], group: Group): string[] {
  return [...new Set(periods.flatMap((period) => Object.keys(period[group])))]
}

/**
 * Requests created per kind of help or per urgency (docs/api/on-behalf.md › Reports for funders's `by_type`, `by_urgency`): one row a period,
 * one column a kind or urgency, in the page's language. A null is a count from 1 to 4 withheld, so it reads
 * "fewer than 5" as in the summary's table; 0 stays 0.
 */
export function BreakdownTable ({ periods, by, below, group }: { periods: Row[], by: By, below: number, group: Group }) {
  const { t, i18n } = useTranslation()
  const number = new Intl.NumberFormat(localeOf(i18n.language))
  const names = groupNames(periods, group)
  const heading = (name: string) => group === 'by_type' ? kindText(t, name) : urgencyText(t, name)
  const which = group === 'by_type' ? 'Type' : 'Urgency'
  const cell = (row: Row, name: string) => {
    const value = row[group][name]
    // A kind missing from a period (one no longer offered) had no requests then.
    return value === null ? t('reports.fewer', { count: below }) : number.format(value ?? 0)
  }
  return (
    <PeriodTable
      caption={t(by === 'week' ? `reports.table.caption${which}Weeks` : `reports.table.caption${which}Months`)}
      by={by}
      columns={names.map(heading)}
      rows={periods.map((row) => ({ label: row.label, cells: names.map((name) => cell(row, name)) }))}
    />
  )
}
