import { useMutation } from '@tanstack/react-query'
import { useEffect, useState, type ReactNode } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useAnnounce } from '../../components/announcer'
import { TextInput } from '../../components/fields'
import { QuestionPage, QuestionText } from '../../components/question-page'
import { useFormProblems } from '../../components/use-form-problems'
import { codeProblem, normaliseCode } from './codes-api'

/**
 * What a journey of getting back in knows between its pages: the address and the code, in memory only (a code
 * is a secret: never in storage, never in the address bar). A reload starts the journey again.
 */
export type Journey = 'reset' | 'signIn' | 'verify'
const memory: Record<Journey, { email?: string, code?: string }> = { reset: {}, signIn: {}, verify: {} }
export const remembered = (journey: Journey) => memory[journey]
export function remember (journey: Journey, patch: { email?: string, code?: string }): void { memory[journey] = { ...memory[journey], ...patch } }
export function forget (journey: Journey): void { memory[journey] = {} }

/** The fragment of the e-mail's link (`#email=…&code=…`, docs/api/messaging.md › Deliveries and e-mail): read without side effects, so twice is harmless. */
function readFragment (): { email?: string, code?: string } {
  const values = new URLSearchParams(window.location.hash.replace(/^#/, ''))
  const email = values.get('email')?.trim()
  const code = values.get('code')
  return { ...(email !== undefined && email !== '' ? { email } : {}), ...(code !== null ? { code: normaliseCode(code) } : {}) }
}

/**
 * The e-mail's link fills the page in: what its fragment carries is kept in the journey's memory and taken out of
 * the address bar at once (history.replaceState), so that it is neither bookmarked nor shared by accident. The
 * code is used only when the person presses the button (mail scanners open links: docs/api/accounts.md › Getting back in).
 */
export function useLinkFragment (journey: Journey): { email?: string, code?: string } {
  const [fragment] = useState(readFragment)
  useEffect(() => {
    if (fragment.email !== undefined || fragment.code !== undefined) remember(journey, fragment)
    if (window.location.hash !== '') window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
  }, [journey, fragment])
  return fragment
}

/** "What is your email address?": asks for a code (the answer is the same whether or not it has an account). */
export function EmailStep ({ journey, title, back, next, ask }: { journey: Journey, title: string, back: string, next: string, ask: (email: string) => Promise<void> }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const form = useFormProblems(['email'])
  const [email, setEmail] = useState(remembered(journey).email ?? '')
  const send = useMutation({
    mutationFn: ask,
    onSuccess: (_answer, sentTo) => {
      remember(journey, { email: sentTo, code: undefined })
      void navigate(next)
    },
    onError: form.fail,
  })
  const question = t('codes.emailQuestion')
  const onContinue = () => {
    const address = email.trim()
    if (address === '') return form.show([{ field: 'email', message: t('errors.emailRequired') }])
    if (!address.includes('@')) return form.show([{ field: 'email', message: t('errors.emailInvalid') }])
    form.clear()
    if (!send.isPending) send.mutate(address)
  }
  return (
    <QuestionPage journey={title} question={question} back={back} form={form} onContinue={onContinue} continueLabel={t('codes.send')}>
      <QuestionText name='email' type='email' label={question} hint={t('codes.emailHint')} autoComplete='email' value={email} onChange={setEmail} />
    </QuestionPage>
  )
}

/**
 * "Check your email": the code typed, pasted (spaces and dashes taken out) or filled in from the e-mail's link;
 * a way to send a new code and to use another address. `onCode` gets a well-formed code; it throws an API error
 * to have it shown, or navigates on.
 */
export function CodeStep ({ journey, title, back, ask, onCode, continueLabel, children }: {
  journey: Journey
  title: string
  back: string
  ask: (email: string) => Promise<void>
  onCode: (email: string, code: string) => Promise<void>
  continueLabel?: string
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const fragment = useLinkFragment(journey)
  const email = fragment.email ?? remembered(journey).email
  const [code, setCode] = useState(fragment.code ?? remembered(journey).code ?? '')
  const [resent, setResent] = useState(false)
  const form = useFormProblems(['code'])
  const submitCode = useMutation({ mutationFn: async (typed: string) => { await onCode(email ?? '', typed) }, onError: form.fail })
  const resend = useMutation({
    mutationFn: async () => { await ask(email ?? '') },
    onSuccess: () => {
      setCode('')
      setResent(true)
      announce(t('codes.resent', { email }))
    },
    onError: form.fail,
  })
  const heading = t('codes.checkEmail')
  if (email === undefined) return <EmailMissing back={back} />
  const onContinue = () => {
    const typed = normaliseCode(code)
    const problem = codeProblem(typed)
    if (problem !== undefined) return form.show([{ field: 'code', message: t(problem) }])
    form.clear()
    setCode(typed)
    if (!submitCode.isPending) submitCode.mutate(typed)
  }
  return (
    <>
      <QuestionPage journey={title} question={heading} back={back} form={form} onContinue={onContinue} continueLabel={continueLabel}>
        <h1 tabIndex={-1}>{heading}</h1>
        <p>{resent ? t('codes.resent', { email }) : t('codes.sentTo', { email })}</p>
        {children}
        <TextInput name='code' label={t('codes.code')} hint={t('codes.codeHint')} inputMode='numeric' autoComplete='one-time-code' value={code} onChange={setCode} maxLength={20} />
      </QuestionPage>
      <section aria-labelledby='no-code-heading' className='ask-step'>
        <h2 id='no-code-heading'>{t('codes.noCodeHeading')}</h2>
        <p>{t('codes.noCodeText')}</p>
        <p><Button className='button secondary' onPress={() => { if (!resend.isPending) resend.mutate() }}>{t('codes.sendNew')}</Button></p>
        <p><Link href={back}>{t('codes.otherEmail')}</Link></p>
      </section>
    </>
  )
}

/** Reached without an address (a reload forgets it, by design): start again from the address. */
function EmailMissing ({ back }: { back: string }) {
  const navigate = useNavigate()
  useEffect(() => { void navigate(back, { replace: true }) }, [navigate, back])
  return null
}
