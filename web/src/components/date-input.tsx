import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { fieldId } from './error-summary'
import { TextInput } from './fields'
import './date-input.css'

/**
 * GOV.UK's date input: day, month and year as three short number fields in one group, the same on every
 * browser and in every language (a browser's own date field shows its own language's order and
 * placeholders, "mm/dd/yyyy" on a German page). `value` is "year-month-day" as typed ("2027-5-3", parts may be
 * empty); lib/schedule.ts readDate reads it. A `hint` comes before the example GOV.UK always gives. A problem for the group is named `name` (the error summary's
 * link leads to the day) and shown once, above the three fields, as GOV.UK does.
 */
export function DateInput ({ name, legend, hint, value, onChange, error, optional = false }: { name: string, legend: ReactNode, hint?: string, value: string, onChange: (value: string) => void, error?: string, optional?: boolean }) {
  const { t } = useTranslation()
  const [year = '', month = '', day = ''] = value.split('-')
  const parts = { year, month, day }
  const set = (part: keyof typeof parts) => (text: string) => {
    const next = { ...parts, [part]: text.replace(/\D/g, '') }
    onChange(`${next.year}-${next.month}-${next.day}`)
  }
  const invalid = error !== undefined
  const described = [`${name}-hint`, ...(invalid ? [`${name}-error`] : [])].join(' ')
  return (
    <fieldset className='fieldset date-input' aria-describedby={described} data-invalid={invalid ? true : undefined}>
      <legend>{legend}{optional ? ` ${t('form.optional')}` : ''}</legend>
      <p id={`${name}-hint`} className='hint'>{hint !== undefined ? `${hint} ` : ''}{t('form.date.hint')}</p>
      {invalid ? <p id={`${name}-error`} className='field-error'>{error}</p> : null}
      <div className='date-input-fields'>
        <TextInput name={`${name}_day`} id={fieldId(name)} invalid={invalid} optional={optional} sayOptional={false} label={t('form.date.day')} inputMode='numeric' maxLength={2} value={day} onChange={set('day')} />
        <TextInput name={`${name}_month`} invalid={invalid} optional={optional} sayOptional={false} label={t('form.date.month')} inputMode='numeric' maxLength={2} value={month} onChange={set('month')} />
        <TextInput name={`${name}_year`} invalid={invalid} optional={optional} sayOptional={false} label={t('form.date.year')} inputMode='numeric' maxLength={4} value={year} onChange={set('year')} />
      </div>
    </fieldset>
  )
}
