import { useEffect, type FormEvent, type ReactNode } from 'react'
import { Button, FieldError, Form, Input, Label, Link, Radio, RadioGroup, Text, TextArea, TextField } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, fieldId } from './error-summary'
import type { useFormProblems } from './use-form-problems'
import './question-page.css'

type FormProblems = ReturnType<typeof useFormProblems>

/** The id of the page's h1, by which a question's radio group or fieldset is named. */
export const QUESTION_ID = 'question'

/**
 * One page of a journey of questions (GOV.UK's question pages: "Ask for help", "Tell us you are worried"):
 * a back link, the error summary above the h1, the journey's name as a caption, the question itself (its
 * label or legend is the h1, rendered by `children`) and "Continue". The document title names the
 * question and the journey, prefixed "Error:" while the page shows problems.
 */
export function QuestionPage ({ journey, question, back, form, onContinue, continueLabel, children }: {
  journey: string
  question: string
  back: string
  form: FormProblems
  onContinue: () => void
  continueLabel?: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  const hasErrors = form.problems.length > 0
  useEffect(() => {
    document.title = `${hasErrors ? `${t('errors.titlePrefix')} ` : ''}${question} – ${journey} – ${t('app.name')}`
  }, [question, journey, hasErrors, t])
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    onContinue()
  }
  return (
    <div className='ask-step'>
      <Link href={back} className='back-link'><span>{t('ask.back')}</span></Link>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <p className='caption'>{journey}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        {children}
        <Button type='submit' className='button'>{continueLabel ?? t('ask.continue')}</Button>
      </Form>
    </div>
  )
}

/** The page's h1 on its own, for questions that are a group (radio buttons, a fieldset). */
export function QuestionHeading ({ children }: { children: ReactNode }) {
  return <h1 tabIndex={-1} id={QUESTION_ID}>{children}</h1>
}

interface QuestionTextProps {
  name: string
  label: string
  hint?: ReactNode
  value: string
  onChange: (value: string) => void
  optional?: boolean
  multiline?: boolean
  maxLength?: number
  type?: 'text' | 'tel' | 'datetime-local' | 'email' | 'password'
  autoComplete?: string
}

/** A question of one text field: its label is the page's h1 (GOV.UK wraps the label in the h1). */
export function QuestionText ({ name, label, hint, value, onChange, optional = false, multiline = false, maxLength, type = 'text', autoComplete }: QuestionTextProps) {
  const { t } = useTranslation()
  return (
    <TextField className='field' name={name} id={fieldId(name)} value={value} onChange={onChange} isRequired={!optional} maxLength={maxLength} type={type} autoComplete={autoComplete}>
      <h1 tabIndex={-1}><Label>{label}{optional ? ` ${t('form.optional')}` : ''}</Label></h1>
      {hint !== undefined ? <Text slot='description' className='hint'>{hint}</Text> : null}
      <FieldError className='field-error' />
      {multiline ? <TextArea rows={5} /> : <Input />}
    </TextField>
  )
}

interface QuestionChoiceProps {
  name: string
  label: string
  hint?: ReactNode
  options: ReadonlyArray<{ value: string, label: string, description?: string }>
  value: string | null
  onChange: (value: string) => void
}

/**
 * A question of radio buttons: the h1 names the group (aria-labelledby), as a legend would. One Tab
 * stop, arrow keys choose; the first option carries the id the error summary links to.
 */
export function QuestionChoice ({ name, label, hint, options, value, onChange }: QuestionChoiceProps) {
  return (
    <div className='stack'>
      <QuestionHeading>{label}</QuestionHeading>
      <RadioGroup className='field choice' name={name} value={value} onChange={onChange} isRequired aria-labelledby={QUESTION_ID}>
        {hint !== undefined ? <Text slot='description' className='hint'>{hint}</Text> : null}
        <FieldError className='field-error' />
        {options.map((option, index) => {
          // The hint is outside the label, so the option's name stays short; it describes the option instead (as GOV.UK's radios).
          const hintId = option.description !== undefined ? `${name}-${option.value}-hint` : undefined
          return (
            <div key={option.value}>
              <Radio value={option.value} className='radio' id={index === 0 ? fieldId(name) : undefined} aria-describedby={hintId}>
                <span className='radio-mark' aria-hidden='true' />
                <span>{option.label}</span>
              </Radio>
              {hintId !== undefined ? <span id={hintId} className='hint radio-item-hint'>{option.description}</span> : null}
            </div>
          )
        })}
      </RadioGroup>
    </div>
  )
}
