import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Checkbox, CheckboxGroup, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, Route, Routes, useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import type { Can } from '../../api/acting-for'
import { fieldId } from '../../components/error-summary'
import { QuestionHeading, QuestionPage, QuestionText, QUESTION_ID } from '../../components/question-page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { CHOOSABLE, TRUSTED_PEOPLE_KEY } from './api'
import './carers.css'

/** The answers between the two pages, in memory only: an address someone else gave is not kept in storage. */
let memory: { email?: string, can?: Can[] } = {}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const BASE = '/people-who-help-me/invite'

/**
 * Inviting someone, one question a page (GOV.UK): their e-mail address, then what they may do for the person,
 * each in plain words; seeing the requests and messages is always part of it and said so.
 */
export function InvitePage () {
  return (
    <Routes>
      <Route index element={<Navigate to='email' replace />} />
      <Route path='email' element={<EmailStep />} />
      <Route path='what' element={<WhatStep />} />
      <Route path='*' element={<Navigate to='email' replace />} />
    </Routes>
  )
}

function EmailStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const form = useFormProblems(['email'])
  const [email, setEmail] = useState(memory.email ?? '')
  const onContinue = () => {
    const address = email.trim()
    if (address === '') return form.show([{ field: 'email', message: t('carers.invite.errors.emailRequired') }])
    if (!EMAIL.test(address)) return form.show([{ field: 'email', message: t('errors.emailInvalid') }])
    form.clear()
    memory = { ...memory, email: address }
    void navigate(`${BASE}/what`)
  }
  return (
    <QuestionPage journey={t('carers.invite.title')} question={t('carers.invite.email')} back='/people-who-help-me' form={form} onContinue={onContinue}>
      <QuestionText name='email' type='email' autoComplete='off' label={t('carers.invite.email')} hint={t('carers.invite.emailHint')} maxLength={254} value={email} onChange={setEmail} />
    </QuestionPage>
  )
}

function WhatStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const queryClient = useQueryClient()
  const form = useFormProblems(['can'])
  const [can, setCan] = useState<Can[]>(memory.can ?? [])
  const invite = useMutation({
    mutationFn: (email: string) => unwrap(api.POST('/api/v1/users/me/trusted-people', { body: { email, can: ['follow', ...can] } })),
    onSuccess: async (_created, email) => {
      memory = {}
      await queryClient.invalidateQueries({ queryKey: TRUSTED_PEOPLE_KEY })
      success(t('carers.invite.sent', { email }), '/people-who-help-me')
      void navigate('/people-who-help-me')
    },
    onError: form.fail,
  })
  const email = memory.email
  // Forgotten once sent: this page then waits for the navigation to the list instead of asking again.
  if (email === undefined) return invite.isSuccess ? null : <Navigate to={`${BASE}/email`} replace />
  const question = t('carers.invite.what', { email })
  return (
    <QuestionPage
      journey={t('carers.invite.title')}
      question={question}
      back={`${BASE}/email`}
      form={form}
      continueLabel={t('carers.invite.send')}
      onContinue={() => {
        memory = { ...memory, can }
        if (!invite.isPending) invite.mutate(email)
      }}
    >
      <QuestionHeading>{question}</QuestionHeading>
      <CheckboxGroup className='field choice' name='can' value={can} onChange={(value) => setCan(value as Can[])} aria-labelledby={QUESTION_ID}>
        <Text slot='description' className='hint'>
          {t('carers.invite.whatHint')}
          <span className='always'> {t('carers.invite.always')}</span>
        </Text>
        {CHOOSABLE.map((item, index) => (
          <Checkbox key={item} value={item} className='radio' id={index === 0 ? fieldId('can') : undefined}>
            <span className='checkbox-mark' aria-hidden='true' />
            <span>{t(`carers.can.${item}`)}</span>
          </Checkbox>
        ))}
      </CheckboxGroup>
    </QuestionPage>
  )
}
