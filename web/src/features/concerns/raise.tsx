import { useMutation } from '@tanstack/react-query'
import { useContext, useEffect, useMemo } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { ErrorSummary } from '../../components/error-summary'
import { Page } from '../../components/page'
import { QuestionChoice, QuestionPage, QuestionText } from '../../components/question-page'
import { useStoredAnswers } from '../../components/stored-answers'
import { useFormProblems } from '../../components/use-form-problems'
import { answersKey, ConcernContext, concernPath, firstUnanswered, startOf, subjectOf, useConcernStep, useSubjectWords, validText, type Subject } from './answers'
import { EmergencyWarning } from './emergency'
import './concerns.css'

/**
 * "Tell us you are worried" (docs/api/help.md › Concerns and docs/web/help.md › Safeguarding): what worries you, whether someone is in danger now,
 * check your answers, then a confirmation that says what happens next. One question a page, each at its
 * own address (`/concerns/new/<step>?request=&person=`), as "Ask for help" is.
 */
export function RaiseConcernPage () {
  const { user } = useSession()
  const { search } = useLocation()
  const subject = useMemo(() => subjectOf(search), [search])
  const key = answersKey(user?.id, subject)
  const { t } = useTranslation()
  // A concern is about a person or a request (docs/api/help.md › Concerns): reached without either, say where to start.
  if (subject.requestId === undefined && subject.personId === undefined) return <Page title={t('concerns.title')}><p>{t('concerns.noSubject')}</p></Page>
  return <ConcernPages key={key} storeKey={key} subject={subject} />
}

function ConcernPages ({ storeKey, subject }: { storeKey: string, subject: Subject }) {
  const store = useStoredAnswers(storeKey)
  const value = useMemo(() => ({ ...store, subject }), [store, subject])
  return (
    <ConcernContext.Provider value={value}>
      <Routes>
        <Route index element={<Start />} />
        <Route path='what' element={<WhatStep />} />
        <Route path='urgent' element={<UrgentStep />} />
        <Route path='check' element={<CheckStep />} />
        <Route path='sent' element={<SentPage />} />
        <Route path='*' element={<Start />} />
      </Routes>
    </ConcernContext.Provider>
  )
}

/** From "Tell us you are worried": a concern already sent about this subject is not shown again as the new one's. */
function Start () {
  const { answers, clear, subject } = useContext(ConcernContext)
  const sent = answers.sent !== undefined
  useEffect(() => { if (sent) clear() }, [sent, clear])
  if (sent) return null
  return <Navigate to={concernPath('what', subject)} replace />
}

function WhatStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const step = useConcernStep('what')
  const form = useFormProblems(['text'])
  const about = useSubjectWords(step.subject, t)
  const text = step.answers.text ?? ''
  const question = t('concerns.what')
  const onContinue = () => {
    if (!validText(text)) return form.show([{ field: 'text', message: t('concerns.errors.text') }])
    form.clear()
    step.update({ text: text.trim() })
    void navigate(step.next)
  }
  return (
    <QuestionPage journey={t('concerns.title')} question={question} back={step.back} form={form} onContinue={onContinue}>
      <QuestionText
        name='text'
        label={question}
        hint={<>{about !== undefined ? <>{about}<br /></> : null}{t('concerns.whatHint')}</>}
        multiline
        maxLength={2000}
        value={text}
        onChange={(value) => step.update({ text: value })}
      />
      <EmergencyWarning />
    </QuestionPage>
  )
}

function UrgentStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const step = useConcernStep('urgent')
  const form = useFormProblems(['urgent'])
  const urgent = step.answers.urgent ?? null
  const question = t('concerns.urgent')
  const onContinue = () => {
    if (urgent === null) return form.show([{ field: 'urgent', message: t('concerns.errors.urgent') }])
    form.clear()
    void navigate(step.next)
  }
  return (
    <QuestionPage journey={t('concerns.title')} question={question} back={step.back} form={form} onContinue={onContinue}>
      <QuestionChoice
        name='urgent'
        label={question}
        hint={t('concerns.urgentHint')}
        value={urgent}
        onChange={(value) => step.update({ urgent: value === 'yes' ? 'yes' : 'no' })}
        options={[
          { value: 'yes', label: t('concerns.urgentYes'), description: t('concerns.urgentYesHint') },
          { value: 'no', label: t('concerns.urgentNo') },
        ]}
      />
      <EmergencyWarning />
    </QuestionPage>
  )
}

/** "Check your answers before sending": each answer with its Change link, then Send. */
function CheckStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { answers, subject, clear, update } = useContext(ConcernContext)
  const form = useFormProblems([])
  const about = useSubjectWords(subject, t)
  const send = useMutation({
    mutationFn: (body: { text: string, urgent: boolean }) => unwrap(api.POST('/api/v1/concerns', {
      body: { ...body, ...(subject.requestId !== undefined ? { request_id: subject.requestId } : {}), ...(subject.personId !== undefined ? { subject_user_id: subject.personId } : {}) },
    })),
    onSuccess: (_concern, body) => {
      // The answers are forgotten; only what the confirmation page says is kept.
      clear()
      update({ sent: { urgent: body.urgent } })
      void navigate(concernPath('sent', subject), { replace: true })
    },
    onError: form.fail,
  })
  const heading = t('concerns.check.heading')
  const hasErrors = form.problems.length > 0
  useEffect(() => {
    document.title = `${hasErrors ? `${t('errors.titlePrefix')} ` : ''}${heading} – ${t('concerns.title')} – ${t('app.name')}`
  }, [heading, hasErrors, t])
  const missing = firstUnanswered(answers)
  if (answers.sent !== undefined) return <Navigate to={concernPath('sent', subject)} replace />
  if (missing !== undefined) return <Navigate to={concernPath(missing, subject)} replace />
  const row = (label: string, step: 'what' | 'urgent', value: string) => (
    <div className='summary-row'>
      <dt>{label}</dt>
      <dd className='pre-line'>{value}</dd>
      <dd className='summary-change'>
        <Link href={concernPath(step, subject, true)}>{t('ask.check.change')}<span className='visually-hidden'> {label}</span></Link>
      </dd>
    </div>
  )
  return (
    <div className='ask-step'>
      <Link href={concernPath('urgent', subject)} className='back-link'><span>{t('ask.back')}</span></Link>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <p className='caption'>{t('concerns.title')}</p>
      <h1 tabIndex={-1}>{heading}</h1>
      <dl className='summary-list'>
        <div className='summary-row'>
          <dt>{t('concerns.check.about')}</dt>
          <dd>{about ?? t('common.loading')}</dd>
        </div>
        {row(t('concerns.check.what'), 'what', answers.text ?? '')}
        {row(t('concerns.check.urgent'), 'urgent', answers.urgent === 'yes' ? t('concerns.urgentYes') : t('concerns.urgentNo'))}
      </dl>
      <h2>{t('concerns.check.sendHeading')}</h2>
      <p>{t('concerns.check.sendText')}</p>
      <Button className='button' onPress={() => { if (!send.isPending) send.mutate({ text: (answers.text ?? '').trim(), urgent: answers.urgent === 'yes' }) }}>{t('concerns.check.send')}</Button>
    </div>
  )
}

/** The confirmation (GOV.UK's confirmation page): sent, and what happens next, in plain words. */
function SentPage () {
  const { t } = useTranslation()
  const { answers, subject } = useContext(ConcernContext)
  useEffect(() => { document.title = `${t('concerns.sent.title')} – ${t('concerns.title')} – ${t('app.name')}` }, [t])
  if (answers.sent === undefined) return <Navigate to='/concerns/mine' replace />
  return (
    <div className='ask-step'>
      <div className='panel'>
        <h1 tabIndex={-1}>{t('concerns.sent.title')}</h1>
        <p>{answers.sent.urgent ? t('concerns.sent.urgentPanel') : t('concerns.sent.panel')}</p>
      </div>
      <h2>{t('concerns.sent.nextHeading')}</h2>
      <p>{answers.sent.urgent ? t('concerns.sent.nextUrgent') : t('concerns.sent.next')}</p>
      <p>{t('concerns.sent.anonymous')}</p>
      <p>{t('concerns.sent.outcome')} <Link href='/concerns/mine'>{t('concerns.mine.title')}</Link></p>
      <EmergencyWarning />
      {subject.requestId !== undefined ? <p><Link href={startOf(subject)}>{t('concerns.sent.backToRequest')}</Link></p> : null}
    </div>
  )
}
