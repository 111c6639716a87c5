import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { startSession } from '../../api/session'
import { useAnnounce } from '../../components/announcer'
import { askSignInCode, confirmSignInCode } from './codes-api'
import { CodeStep, EmailStep, forget } from './code-steps'
import { safeNext } from './sign-in'

/**
 * "Sign in with a code instead" (docs/api/accounts.md › Getting back in and docs/web/accounts.md; WCAG 2.2 3.3.8, no password to remember): the address,
 * then the code from the e-mail (`/sign-in/code#email=…&code=…` from its link), then signed in. `?next=` is
 * carried through, as on the sign-in page.
 */
function useNext (): { next: string, query: string } {
  const [params] = useSearchParams()
  const next = params.get('next')
  return { next: safeNext(next), query: next !== null ? `?next=${encodeURIComponent(next)}` : '' }
}

export function SignInWithCodePage () {
  const { t } = useTranslation()
  const { query } = useNext()
  return <EmailStep journey='signIn' title={t('signInCode.title')} back={`/sign-in${query}`} next={`/sign-in/code${query}`} ask={askSignInCode} />
}

export function SignInCodePage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const { next, query } = useNext()
  const onCode = async (email: string, code: string) => {
    const answer = await confirmSignInCode({ email, code })
    forget('signIn')
    startSession(answer)
    // Spoken only, as after signing in with a password: the page it leads to greets the person.
    announce(t('account.signedIn', { name: answer.user.first_name }))
    await navigate(next)
  }
  return <CodeStep journey='signIn' title={t('signInCode.title')} back={`/sign-in/with-code${query}`} ask={askSignInCode} onCode={onCode} continueLabel={t('account.signIn')} />
}
