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

/** The words of a code page: where the code went, and what to do when it does not come. */
export interface CodeWords {
  heading: string
  sent: string
  resent: string
  hint: string
  codeRequired: string
  noCodeHeading: string
  noCodeText: string
  /** A way to change where codes go ("Use a different email address"). */
  other: { href: string, label: string }
}

/**
 * The step that takes a code (GOV.UK's "Check your email" and "Check your phone" pages): the code typed or pasted
 * (spaces and dashes taken out), checked for its 6 digits before it is sent, a way to send a new one and to change
 * where codes go. `onCode` gets a well-formed code; it throws an API error to have it shown (the summary linked
 * to the field), or navigates on. Used for e-mailed codes (CodeStep) and for the code texted to a phone.
 */
export function CodeEntry ({ title, back, words, initialCode = '', ask, onCode, continueLabel, children }: {
  title: string
  back: string
  words: CodeWords
  initialCode?: string
  ask: () => Promise<void>
  onCode: (code: string) => Promise<void>
  continueLabel?: string
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const [code, setCode] = useState(initialCode)
  const [resent, setResent] = useState(false)
  const form = useFormProblems(['code'])
  const submitCode = useMutation({ mutationFn: onCode, onError: form.fail })
  const resend = useMutation({
    mutationFn: ask,
    onSuccess: () => {
      setCode('')
      setResent(true)
      announce(words.resent)
    },
    onError: form.fail,
  })
  const onContinue = () => {
    const typed = normaliseCode(code)
    const problem = codeProblem(typed)
    if (problem !== undefined) return form.show([{ field: 'code', message: problem === 'codes.errors.codeRequired' ? words.codeRequired : t(problem) }])
    form.clear()
    setCode(typed)
    if (!submitCode.isPending) submitCode.mutate(typed)
  }
  return (
    <>
      <QuestionPage journey={title} question={words.heading} back={back} form={form} onContinue={onContinue} continueLabel={continueLabel}>
        <h1 tabIndex={-1}>{words.heading}</h1>
        <p>{resent ? words.resent : words.sent}</p>
        {children}
        <TextInput name='code' label={t('codes.code')} hint={words.hint} inputMode='numeric' autoComplete='one-time-code' value={code} onChange={setCode} maxLength={20} />
      </QuestionPage>
      <section aria-labelledby='no-code-heading' className='ask-step'>
        <h2 id='no-code-heading'>{words.noCodeHeading}</h2>
        <p>{words.noCodeText}</p>
        <p><Button className='button secondary' onPress={() => { if (!resend.isPending) resend.mutate() }}>{t('codes.sendNew')}</Button></p>
        <p><Link href={words.other.href}>{words.other.label}</Link></p>
      </section>
    </>
  )
}

/**
 * "Check your email": the code typed, pasted or filled in from the e-mail's link; a way to send a new code and to
 * use another address. `onCode` gets a well-formed code; it throws an API error to have it shown, or navigates on.
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
  const fragment = useLinkFragment(journey)
  const email = fragment.email ?? remembered(journey).email
  if (email === undefined) return <EmailMissing back={back} />
  const words: CodeWords = {
    heading: t('codes.checkEmail'),
    sent: t('codes.sentTo', { email }),
    resent: t('codes.resent', { email }),
    hint: t('codes.codeHint'),
    codeRequired: t('codes.errors.codeRequired'),
    noCodeHeading: t('codes.noCodeHeading'),
    noCodeText: t('codes.noCodeText'),
    other: { href: back, label: t('codes.otherEmail') },
  }
  return (
    <CodeEntry
      title={title} back={back} words={words} initialCode={fragment.code ?? remembered(journey).code ?? ''} continueLabel={continueLabel}
      ask={async () => { await ask(email) }} onCode={async (code) => { await onCode(email, code) }}
    >
      {children}
    </CodeEntry>
  )
}

/** Reached without an address (a reload forgets it, by design): start again from the address. */
function EmailMissing ({ back }: { back: string }) {
  const navigate = useNavigate()
  useEffect(() => { void navigate(back, { replace: true }) }, [navigate, back])
  return null
}
