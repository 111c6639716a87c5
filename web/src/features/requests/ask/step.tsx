import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { QuestionPage } from '../../../components/question-page'
import { journeyName, useStep } from './answers'

export { QuestionChoice, QuestionHeading, QuestionText, QUESTION_ID } from '../../../components/question-page'

/** One page of "Ask for help": the shared question page, captioned with the journey's name. */
export function StepPage (props: Omit<ComponentProps<typeof QuestionPage>, 'journey'>) {
  const { t } = useTranslation()
  const { answers } = useStep('kind')
  return <QuestionPage journey={journeyName(t, answers)} {...props} />
}
