import { Checkbox, CheckboxGroup, FieldError, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { fieldId } from '../../../components/error-summary'
import { DateInput } from '../../../components/date-input'
import { TextInput } from '../../../components/fields'
import { dayName, readClock, readDate, WEEK_DAYS, type WeekDay } from '../../../lib/schedule'
import { backFits, blankDate, datesProblem, durationOf, type Answers } from './answers'
import { useContinue } from './questions'
import { QuestionChoice, QuestionHeading, QUESTION_ID, StepPage, usePersonAskedFor } from './step'

/**
 * The questions of regular help (docs/web/schedule.md), one a page in place of "When do you need it done?":
 * how often, which days, what time, a way back, from which date. docs/web/schedule.md.
 */

export function OftenStep () {
  const { t } = useTranslation()
  const step = useContinue('often', ['often'])
  const often = step.answers.often ?? null
  const name = usePersonAskedFor()
  const question = name !== undefined ? t('regular.for.often', { name }) : t('regular.often')
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(() => often === null ? { field: 'often', message: t('regular.errors.often') } : undefined, { often: often ?? undefined })}>
      <QuestionChoice
        name='often'
        label={question}
        value={often}
        onChange={(value) => step.update({ often: value as Answers['often'] })}
        options={[
          { value: 'once', label: t('regular.once'), description: t('regular.onceHint') },
          { value: 'regular', label: t('regular.regular'), description: t('regular.regularHint') },
        ]}
      />
    </StepPage>
  )
}

/** Checkboxes Monday to Sunday, named in the page's language; the h1 names the group. */
export function DaysStep () {
  const { t, i18n } = useTranslation()
  const step = useContinue('days', ['days'])
  const days = step.answers.days ?? []
  const name = usePersonAskedFor()
  const question = t('regular.days')
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(() => days.length === 0 ? { field: 'days', message: t('regular.errors.days') } : undefined, { days })}>
      <QuestionHeading>{question}</QuestionHeading>
      <CheckboxGroup className='field choice' name='days' value={days} onChange={(value) => step.update({ days: value as WeekDay[] })} aria-labelledby={QUESTION_ID}>
        <Text slot='description' className='hint'>{name !== undefined ? t('regular.for.daysHint', { name }) : t('regular.daysHint')}</Text>
        <FieldError className='field-error' />
        {WEEK_DAYS.map((day, index) => (
          <Checkbox key={day} value={day} className='radio' id={index === 0 ? fieldId('days') : undefined}>
            <span className='checkbox-mark' aria-hidden='true' />
            <span>{dayName(day, i18n.language)}</span>
          </Checkbox>
        ))}
      </CheckboxGroup>
    </StepPage>
  )
}

/** From and until: the duration is what lies between (the API's duration_minutes). */
export function TimesStep () {
  const { t } = useTranslation()
  const step = useContinue('times', ['start_time', 'end_time'])
  const start = step.answers.start ?? ''
  const end = step.answers.end ?? ''
  const question = t('regular.times')
  const check = () => {
    if (readClock(start) === undefined) return { field: 'start_time', message: t('regular.errors.start') }
    if (readClock(end) === undefined) return { field: 'end_time', message: t('regular.errors.end') }
    if (durationOf({ start, end }) === undefined) return { field: 'end_time', message: t('regular.errors.duration') }
    return undefined
  }
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(check, { start: readClock(start) ?? start, end: readClock(end) ?? end })}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <p className='hint'>{t('regular.timesHint')}</p>
        <div className='stack'>
          <TextInput name='start_time' label={t('regular.start')} hint={t('regular.clockHint')} inputMode='text' maxLength={5} value={start} onChange={(value) => step.update({ start: value })} />
          <TextInput name='end_time' label={t('regular.end')} hint={t('regular.clockHint')} inputMode='text' maxLength={5} value={end} onChange={(value) => step.update({ end: value })} />
        </div>
      </fieldset>
    </StepPage>
  )
}

/** A lift back the same day: no, or yes at a time (GOV.UK's conditional reveal). */
export function ReturnStep () {
  const { t } = useTranslation()
  const step = useContinue('return', ['return', 'return_time'])
  const choice = step.answers.returnTrip ?? null
  const back = step.answers.back ?? ''
  const name = usePersonAskedFor()
  const question = name !== undefined ? t('regular.for.return', { name }) : t('regular.return')
  const check = () => {
    if (choice === null) return { field: 'return', message: t('regular.errors.return') }
    if (choice === 'yes' && !backFits({ ...step.answers, back: readClock(back) ?? back })) return { field: 'return_time', message: t('regular.errors.back', { end: step.answers.end ?? '' }) }
    return undefined
  }
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(check, { returnTrip: choice ?? undefined, back: choice === 'yes' ? readClock(back) ?? back : '' })}>
      <QuestionChoice
        name='return'
        label={question}
        hint={name !== undefined ? t('regular.for.returnHint', { name }) : t('regular.returnHint')}
        value={choice}
        onChange={(value) => step.update({ returnTrip: value as 'no' | 'yes' })}
        options={[{ value: 'no', label: t('regular.returnNo') }, { value: 'yes', label: name !== undefined ? t('regular.for.returnYes') : t('regular.returnYes') }]}
      />
      {choice === 'yes'
        ? <TextInput name='return_time' label={t('regular.backTime')} hint={t('regular.backHint')} maxLength={5} value={back} onChange={(value) => step.update({ back: value })} />
        : null}
    </StepPage>
  )
}

/** The first day, and the last (optional; without it the help goes on until stopped). */
export function DatesStep () {
  const { t } = useTranslation()
  const step = useContinue('dates', ['starts_on', 'ends_on'])
  const problemAt = (field: string) => step.form.problems.find((problem) => problem.field === field)?.message
  const from = step.answers.from ?? ''
  const until = step.answers.until ?? ''
  const name = usePersonAskedFor()
  const question = t('regular.dates')
  const check = () => {
    const problem = datesProblem({ from, until })
    if (problem === 'from') return { field: 'starts_on', message: t('regular.errors.from') }
    if (problem === 'until') return { field: 'ends_on', message: t('regular.errors.until') }
    return undefined
  }
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(check, { from: readDate(from) ?? from, until: blankDate(until) ? '' : readDate(until) ?? until })}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='stack'>
          <DateInput name='starts_on' legend={t('regular.from')} value={from} onChange={(value) => step.update({ from: value })} error={problemAt('starts_on')} />
          <DateInput name='ends_on' legend={t('regular.until')} hint={name !== undefined ? t('regular.for.untilHint', { name }) : t('regular.untilHint')} optional value={until} onChange={(value) => step.update({ until: value })} error={problemAt('ends_on')} />
        </div>
      </fieldset>
    </StepPage>
  )
}
