import { useContext, type ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { shortName } from '../../../api/clients'
import { QuestionPage } from '../../../components/question-page'
import { AnswersContext, useAskingFor } from './answers'

export { QuestionChoice, QuestionHeading, QuestionText, QUESTION_ID } from '../../../components/question-page'

/**
 * The journey's name over each question: "Ask for help", "Ask for help for Erna S." for a coordinator's client, or
 * "Ask for help for Rita" for a carer's person (docs/api/on-behalf.md › Coordinators and clients, › Carers).
 */
export function useJourneyName (): string {
  const { t } = useTranslation()
  const { client } = useAskingFor()
  const { answers } = useContext(AnswersContext)
  if (client !== undefined) return t('coordinator.ask.caption', { name: shortName(client) })
  return answers.forName !== undefined ? t('carers.askFor', { name: answers.forName }) : t('ask.title')
}

/**
 * For whom help is asked when it is not the signed-in person: the client's first name or the carer's person's name, so
 * that the questions speak of them ("How often does Erna need this help?") rather than to the one asking.
 */
export function usePersonAskedFor (): string | undefined {
  const { client } = useAskingFor()
  const { answers } = useContext(AnswersContext)
  return client?.first_name ?? answers.forName
}

/** One page of "Ask for help": the shared question page, captioned with the journey's name. */
export function StepPage (props: Omit<ComponentProps<typeof QuestionPage>, 'journey'>) {
  return <QuestionPage journey={useJourneyName()} {...props} />
}
