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

/** The texts that speak to the person who needs the help ("What kind of help do you need?"), under `ask.for` for someone else. */
export type AskWord = 'kind' | 'intro' | 'description' | 'descriptionHint' | 'placeQuestion' | 'placeHint' | 'when' | 'contactQuestion' | 'phoneHint' |
  'checkHeading' | 'checkDescription' | 'errors.kind' | 'errors.description' | 'errors.place'
const OWN: Record<AskWord, string> = {
  kind: 'ask.kind',
  intro: 'ask.intro',
  description: 'ask.description',
  descriptionHint: 'ask.descriptionHint',
  placeQuestion: 'ask.place.question',
  placeHint: 'ask.place.hint',
  when: 'ask.when',
  contactQuestion: 'ask.contactQuestion',
  phoneHint: 'ask.phoneHint',
  checkHeading: 'ask.check.heading',
  checkDescription: 'ask.check.description',
  'errors.kind': 'ask.errors.kind',
  'errors.description': 'ask.errors.description',
  'errors.place': 'ask.errors.place',
}

/**
 * The questions' words for whom the help is: to the person herself ("What do you need help with?"), or about the
 * client or the carer's person to the one asking for them ("What does Erna need help with?"): a coordinator on the
 * phone does not need the help herself. Named by first name for a client, by the name the carer knows for a person.
 */
export function useAskWords (): (word: AskWord) => string {
  const { t } = useTranslation()
  const { client } = useAskingFor()
  const { answers } = useContext(AnswersContext)
  const name = client !== undefined ? client.first_name : answers.forName
  return (word) => name !== undefined ? t(`ask.for.${word}`, { name }) : t(OWN[word])
}

/** One page of "Ask for help": the shared question page, captioned with the journey's name. */
export function StepPage (props: Omit<ComponentProps<typeof QuestionPage>, 'journey'>) {
  return <QuestionPage journey={useJourneyName()} {...props} />
}
