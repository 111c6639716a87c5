import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAnnounce } from './announcer'
import { serverProblem, type Problem } from '../i18n/server-errors'

/**
 * The problems of one form: shown in the summary (focused, so a screen reader reads them) and beside
 * their fields (React Aria's validationErrors). `fail` takes client-side problems or an API error.
 */
export function useFormProblems (fields: readonly string[]) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const [state, setState] = useState<{ problems: Problem[], attempt: number }>({ problems: [], attempt: 0 })
  // Each failed attempt counts, so the summary takes focus again even when the problems are the same.
  const show = useCallback((problems: Problem[]) => setState((previous) => ({ problems, attempt: previous.attempt + 1 })), [])
  const fail = useCallback((error: unknown) => {
    const problem = serverProblem(error, t, fields)
    show([problem])
    if (problem.field === undefined) announce(problem.message)
  }, [t, fields, show, announce])
  const validationErrors = Object.fromEntries(state.problems.filter((p) => p.field !== undefined).map((p) => [p.field!, p.message]))
  const clear = useCallback(() => setState((previous) => ({ problems: [], attempt: previous.attempt })), [])
  return { problems: state.problems, attempt: state.attempt, show, fail, clear, validationErrors }
}
