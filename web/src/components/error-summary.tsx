import { useEffect, useRef, type MouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Problem } from '../i18n/server-errors'

export const fieldId = (name: string): string => `field-${name}`

/** A link scrolls the field's label into view, then focuses the field (as GOV.UK's summary does); also for a page's own links to a field. */
export function focusField (event: MouseEvent<HTMLAnchorElement>, name: string): void {
  const target = document.getElementById(fieldId(name))
  // A radio group's id is on its first option's label; the input is inside it.
  const input = target?.matches('input, textarea, select') === true ? target : target?.querySelector<HTMLElement>('input') ?? null
  if (target === null || input === null) return
  event.preventDefault()
  const label = document.querySelector(`label[for="${input.id}"]`) ?? target.closest('.field')
  ;(label ?? input).scrollIntoView({ block: 'start' })
  input.focus({ preventScroll: true })
}

/**
 * "There is a problem", above the h1: one line per problem, worded as beside its field, linked to it.
 * The container takes focus after a failed submit; role=alert sits on an inner element so the focus
 * and the announcement do not race (alphagov/govuk-frontend).
 */
export function ErrorSummary ({ problems, attempt }: { problems: Problem[], attempt: number }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDivElement>(null)
  const shown = problems.length > 0
  useEffect(() => {
    if (shown) ref.current?.focus()
  }, [attempt, shown])
  if (!shown) return null
  return (
    <div className='error-summary' tabIndex={-1} ref={ref} aria-labelledby='error-summary-title'>
      <div role='alert'>
        <h2 id='error-summary-title'>{t('errors.summaryTitle')}</h2>
        <ul>
          {problems.map((problem, index) => (
            <li key={`${problem.field ?? ''}${index}`}>
              {problem.field !== undefined
                ? <a href={`#${fieldId(problem.field)}`} onClick={(event) => focusField(event, problem.field!)}>{problem.message}</a>
                : problem.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
