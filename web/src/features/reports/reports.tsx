import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { useAnnounce } from '../../components/announcer'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { formatDay, localeOf } from '../../lib/format'
import { defaultRange, downloadCsv, useSummary, type By, type Range } from './api'
import { BreakdownTable } from './breakdown'
import { SummaryChart } from './chart'
import { SummaryTable } from './table'
import './reports.css'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const FIELDS = ['from', 'to', 'by'] as const

/** "November 2026" / "Nov" for a month; "Week of 2 November 2026" / "2 Nov" for a week starting that day. */
export function periodNames (start: string, by: By, language: string): { label: string, short: string } {
  const [year, month, date] = start.slice(0, 10).split('-').map(Number)
  const at = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1))
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(localeOf(language), { ...options, timeZone: 'UTC' }).format(at)
  return by === 'month'
    ? { label: format({ month: 'long', year: 'numeric' }), short: format({ month: 'short' }) }
    : { label: format({ day: 'numeric', month: 'long', year: 'numeric' }), short: format({ day: 'numeric', month: 'short' }) }
}

/**
 * Reports for funders (docs/api/on-behalf.md › Reports for funders and docs/web/on-behalf.md): a period (from, to, by month or week) in the address, the summary as
 * a chart with the same figures in a table beside it, the requests by kind of help and by urgency in two more
 * tables, and "Download as CSV".
 */
export function ReportsPage () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const [params, setParams] = useSearchParams()
  const fallback = defaultRange()
  const range: Range = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to, by: params.get('by') === 'week' ? 'week' : 'month' }
  const [draft, setDraft] = useState(range)
  const form = useFormProblems(FIELDS)
  const summary = useSummary(range)
  const csv = useMutation({
    mutationFn: () => downloadCsv(range),
    onSuccess: (name) => announce(t('reports.csv.done', { name })),
    onError: form.fail,
  })
  // After "Show" (not on opening the page) the new figures are said, since focus stays on the button.
  const asked = useRef(false)
  const shown = summary.data?.periods.length
  useEffect(() => {
    if (!asked.current || shown === undefined) return
    asked.current = false
    announce(t(range.by === 'week' ? 'reports.shownWeeks' : 'reports.shownMonths', { count: shown }))
  }, [shown, summary.dataUpdatedAt, range.by, announce, t])
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!DATE.test(draft.from)) return form.show([{ field: 'from', message: t('reports.errors.from') }])
    if (!DATE.test(draft.to)) return form.show([{ field: 'to', message: t('reports.errors.to') }])
    if (draft.from > draft.to) return form.show([{ field: 'to', message: t('reports.errors.order') }])
    form.clear()
    asked.current = true
    // The page stays, focus stays on the button: the new figures are announced.
    setParams({ from: draft.from, to: draft.to, by: draft.by }, { replace: true })
  }
  const problem = summary.isError ? serverProblem(summary.error, t, FIELDS) : undefined
  const periods = (summary.data?.periods ?? []).map((period) => ({ ...period, ...periodNames(period.start, range.by, i18n.language) }))
  return (
    <Page title={t('reports.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <p>{t('reports.intro', { below: summary.data?.suppressed_below ?? 5, max: (summary.data?.suppressed_below ?? 5) - 1 })}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack report-form'>
        <div className='report-dates'>
          <TextInput name='from' type='date' label={t('reports.from')} value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
          <TextInput name='to' type='date' label={t('reports.to')} value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        </div>
        <Choice name='by' label={t('reports.by')} value={draft.by} onChange={(by) => setDraft({ ...draft, by: by === 'week' ? 'week' : 'month' })} options={[{ value: 'month', label: t('reports.byMonth') }, { value: 'week', label: t('reports.byWeek') }]} />
        <Button type='submit' className='button'>{t('reports.show')}</Button>
      </Form>
      <h2>{t('reports.csv.heading')}</h2>
      <p>{t('reports.csv.text')}</p>
      <Button className='button secondary' onPress={() => { if (!csv.isPending) csv.mutate() }}>{t('reports.csv.button')}</Button>
      <h2 id='report-figures'>{t('reports.figures', { from: formatDay(range.from, i18n.language), to: formatDay(range.to, i18n.language) })}</h2>
      {summary.isPending
        ? <p>{t('common.loading')}</p>
        : problem !== undefined
          ? <p className='error-text' role='alert'>{problem.message}</p>
          : (
            <>
              <div className='report-side-by-side'>
                <SummaryChart periods={periods.map((period) => ({ label: period.label, short: period.short, created: period.requests_created, completed: period.requests_completed }))} by={range.by} />
                <SummaryTable periods={periods} by={range.by} below={summary.data?.suppressed_below ?? 5} />
              </div>
              <div className='report-breakdowns'>
                <BreakdownTable periods={periods} by={range.by} below={summary.data?.suppressed_below ?? 5} group='by_type' />
                <BreakdownTable periods={periods} by={range.by} below={summary.data?.suppressed_below ?? 5} group='by_urgency' />
              </div>
            </>
            )}
    </Page>
  )
}
