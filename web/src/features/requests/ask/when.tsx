import { useTranslation } from 'react-i18next'
import { DateInput } from '../../../components/date-input'
import { TextInput } from '../../../components/fields'
import type { Problem } from '../../../i18n/server-errors'
import { readClock, readDate } from '../../../lib/schedule'
import { useContinue } from './questions'
import { QuestionChoice, QuestionHeading, StepPage, useAskWords } from './step'
import { deadlineOf, TIMINGS, windowOf, type Timing, type TimingProblem } from './timing'

/** Each problem of the date and time pages, at the field it belongs to. */
const PROBLEM_FIELD: Record<TimingProblem, string> = { onDay: 'on_day', past: 'on_day', startsAt: 'starts_at', endsAt: 'ends_at', byTime: 'by_time' }
const FIELDS = Object.values(PROBLEM_FIELD)

/** The date's problem, which the date input shows once for its three fields. */
const dayProblem = (problems: readonly Problem[]): string | undefined => problems.find((problem) => problem.field === 'on_day')?.message

/** The answers as they are sent on: a date written in full, times as HH:MM. */
const tidy = (text: string | undefined, read: (text: string) => string | undefined): string => read(text ?? '') ?? (text ?? '').trim()

/** "When do you need it?": at a set time (an appointment), by a day, or any time (docs/web/help.md › Asking for help). */
export function WhenStep () {
  const { t } = useTranslation()
  const step = useContinue('when', ['timing'])
  const words = useAskWords()
  const timing = step.answers.timing ?? null
  const question = words('when')
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(() => timing === null ? { field: 'timing', message: t('ask.errors.timing') } : undefined, { timing: timing ?? undefined })}>
      <QuestionChoice
        name='timing'
        label={question}
        value={timing}
        onChange={(value) => step.update({ timing: value as Timing })}
        options={TIMINGS.map((value) => ({ value, label: t(`ask.timing.${value}`), description: value === 'at' ? t('ask.timing.atHint') : undefined }))}
      />
    </StepPage>
  )
}

/** A set time: the day, the time to be there and, optionally, until when (an hour is planned without it). */
export function AtStep () {
  const { t } = useTranslation()
  const step = useContinue('at', FIELDS)
  const question = t('ask.at.question')
  const { onDay = '', startsAt = '', endsAt = '' } = step.answers
  const check = () => {
    const window = windowOf(step.answers)
    return typeof window === 'string' ? { field: PROBLEM_FIELD[window], message: t(`ask.errors.${window}`) } : undefined
  }
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(check, { onDay: tidy(onDay, readDate), startsAt: tidy(startsAt, readClock), endsAt: tidy(endsAt, readClock) })}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='stack'>
          <DateInput name='on_day' legend={t('ask.at.day')} value={onDay} onChange={(value) => step.update({ onDay: value })} error={dayProblem(step.form.problems)} />
          <TextInput name='starts_at' label={t('ask.at.from')} hint={t('regular.clockHint')} inputMode='text' maxLength={5} value={startsAt} onChange={(value) => step.update({ startsAt: value })} />
          <TextInput name='ends_at' label={t('ask.at.until')} hint={t('ask.at.untilHint')} optional inputMode='text' maxLength={5} value={endsAt} onChange={(value) => step.update({ endsAt: value })} />
        </div>
      </fieldset>
    </StepPage>
  )
}

/** By a day: the day and, optionally, the time it must be done by (the day's end without it). */
export function ByStep () {
  const { t } = useTranslation()
  const step = useContinue('by', FIELDS)
  const question = t('ask.by.question')
  const { onDay = '', byTime = '' } = step.answers
  const check = () => {
    const deadline = deadlineOf(step.answers)
    return typeof deadline === 'string' ? { field: PROBLEM_FIELD[deadline], message: t(`ask.errors.${deadline}`) } : undefined
  }
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(check, { onDay: tidy(onDay, readDate), byTime: tidy(byTime, readClock) })}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='stack'>
          <DateInput name='on_day' legend={t('ask.by.day')} value={onDay} onChange={(value) => step.update({ onDay: value })} error={dayProblem(step.form.problems)} />
          <TextInput name='by_time' label={t('ask.by.time')} hint={t('ask.by.timeHint')} optional inputMode='text' maxLength={5} value={byTime} onChange={(value) => step.update({ byTime: value })} />
        </div>
      </fieldset>
    </StepPage>
  )
}
