import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { shortName } from '../../../api/clients'
import { QuestionPage } from '../../../components/question-page'
import { useAskingFor } from './answers'

export { QuestionChoice, QuestionHeading, QuestionText, QUESTION_ID } from '../../../components/question-page'

/** The journey's name over each question: "Ask for help", or "Ask for help for Erna S." for a coordinator's client. */
export function useJourneyName (): string {
  const { t } = useTranslation()
  const { client } = useAskingFor()
  return client !== undefined ? t('coordinator.ask.caption', { name: shortName(client) }) : t('ask.title')
}

/** One page of "Ask for help": the shared question page, captioned with the journey's name. */
export function StepPage (props: Omit<ComponentProps<typeof QuestionPage>, 'journey'>) {
  return <QuestionPage journey={useJourneyName()} {...props} />
}
