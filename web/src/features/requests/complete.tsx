import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useRequest } from '../../api/use-request'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { useInvalidate } from './invalidate'
import { actingForName, actionProblem, may, useStanding } from './standing'

/**
 * Completing a request, one question per page (GOV.UK): "Was the help done?", then the rating the API
 * requires, on its own page that says what the rating is for. The request is completed only on the second.
 * Its requester, or a carer the person granted `complete` (standing.ts): then each page is captioned with
 * whose request it is, and `person` names them in the words that follow.
 */
function useCompletable (): { id: number, name?: string, person?: string, caption?: ReactNode, page?: ReactNode } {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const request = useRequest(id)
  const standing = useStanding(request.data)
  if ((request.isPending || standing.kind === 'loading') && !request.isError && Number.isInteger(id) && id > 0) return { id, page: <p>{t('common.loading')}</p> }
  const item = request.data
  if (item === undefined || !may(standing, 'complete') || item.status !== 'in_progress' || item.assigned_volunteer === null) {
    const text = request.isError ? serverProblem(request.error, t, []).message : t('complete.notNowText')
    return { id, page: <Page title={t('complete.notNow')}><p>{text}</p><p><Link href={`/requests/${id}`}>{t('complete.back')}</Link></p></Page> }
  }
  const person = actingForName(standing)
  const caption = person !== undefined ? <p className='caption'>{t('carers.act.caption', { name: person })}</p> : null
  return { id, name: item.assigned_volunteer.first_name, person, caption }
}

const DONE_FIELDS = ['done'] as const

/** "Was the help done?": yes leads on to the rating; no changes nothing and goes back to the request. */
export function CompleteDonePage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const form = useFormProblems(DONE_FIELDS)
  const [done, setDone] = useState<string | null>(null)
  const { id, name, caption, page } = useCompletable()
  if (page !== undefined) return page
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (done === null) return form.show([{ field: 'done', message: t('complete.errors.done') }])
    form.clear()
    if (done === 'yes') {
      void navigate(`/requests/${id}/rating`)
      return
    }
    announce(t('complete.notYet', { name }))
    void navigate(`/requests/${id}`)
  }
  return (
    <Page
      title={t('complete.doneQuestion')}
      hasErrors={form.problems.length > 0}
      before={<><p><Link href={`/requests/${id}`} className='back-link'>{t('complete.back')}</Link></p><ErrorSummary problems={form.problems} attempt={form.attempt} />{caption}</>}
    >
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <Choice
          name='done'
          label={t('complete.doneQuestion')}
          hideLabel
          hint={t('complete.doneHint', { name })}
          value={done}
          onChange={setDone}
          options={[{ value: 'yes', label: t('complete.yes') }, { value: 'no', label: t('complete.no', { name }) }]}
        />
        <Button type='submit' className='button'>{t('complete.continue')}</Button>
      </Form>
    </Page>
  )
}

const RATING_FIELDS = ['rating', 'comment'] as const

/** The rating, on its own page: what it is for, that it is needed to finish, then "Mark as done". */
export function CompleteRatingPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const form = useFormProblems(RATING_FIELDS)
  const [rating, setRating] = useState<string | null>(null)
  const { id, name, person, caption, page } = useCompletable()
  const invalidate = useInvalidate(id)
  const complete = useMutation({
    mutationFn: (body: { rating: number, comment?: string }) => unwrap(api.POST('/api/v1/requests/{id}/complete', { params: { path: { id } }, body })),
    onSuccess: async () => {
      await invalidate()
      success(person !== undefined ? t('complete.doneFor', { person }) : t('complete.done'), `/requests/${id}`)
      void navigate(`/requests/${id}`)
    },
    // To a carer a refusal is said in words (the person may have stopped it meanwhile); anything else as usual.
    onError: (error) => person !== undefined ? form.show([{ message: actionProblem(error, t, person) }]) : form.fail(error),
  })
  if (page !== undefined) return page
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (complete.isPending) return
    const comment = String(new FormData(event.currentTarget).get('comment') ?? '').trim()
    if (rating === null) return form.show([{ field: 'rating', message: t('complete.errors.rating') }])
    form.clear()
    complete.mutate(comment === '' ? { rating: Number(rating) } : { rating: Number(rating), comment })
  }
  const question = t('complete.rating', { name })
  return (
    <Page
      title={question}
      hasErrors={form.problems.length > 0}
      before={<><p><Link href={`/requests/${id}/done`} className='back-link'>{t('complete.back')}</Link></p><ErrorSummary problems={form.problems} attempt={form.attempt} />{caption}</>}
    >
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <Choice
          name='rating'
          label={question}
          hideLabel
          hint={t('complete.ratingHint', { name })}
          value={rating}
          onChange={setRating}
          options={[5, 4, 3, 2, 1].map((stars) => ({ value: String(stars), label: t('complete.stars', { count: stars }) }))}
        />
        <TextInput name='comment' label={t('complete.comment')} optional multiline maxLength={2000} />
        <Button type='submit' className='button'>{t('complete.submit')}</Button>
      </Form>
    </Page>
  )
}
