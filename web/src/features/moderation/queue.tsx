import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { formatDateTime, statusLabel, urgencyLabel } from '../requests/labels'

const PENDING = ['get', '/api/v1/moderation/requests/pending'] as const
const DECIDED = ['get', '/api/v1/moderation/requests/my'] as const
type Item = { id: number, title: string, description: string, address: string, city: string | null, urgency: string, status: string, requester_name: string, request_type_name: string, created_at: string }

/**
 * After a decision, focus goes to the next request's heading, or to the list's heading when none is
 * left. Called once the list has been fetched again, after any dialog has given focus back.
 */
function focusAfter (ids: number[], decided: number): void {
  const index = ids.indexOf(decided)
  const next = ids[index + 1] ?? ids[index - 1]
  setTimeout(() => {
    const target = next !== undefined ? document.getElementById(`pending-${next}`) : null
    ;(target ?? document.getElementById('queue-heading'))?.focus()
  }, 50)
}

function RejectDialog ({ item, onRejected }: { item: Item, onRejected: () => Promise<void> }) {
  const { t } = useTranslation()
  const form = useFormProblems(['comment'])
  const reject = useMutation({
    mutationFn: (comment: string) => unwrap(api.POST('/api/v1/moderation/requests/{id}/reject', { params: { path: { id: item.id } }, body: { comment } })),
  })
  return (
    <DialogTrigger>
      <Button className='button secondary'>{t('moderation.reject', { title: item.title })}</Button>
      <Modal className='modal' isDismissable>
        <Dialog className='dialog'>
          {({ close }) => {
            const submit = (event: FormEvent<HTMLFormElement>) => {
              event.preventDefault()
              if (reject.isPending) return
              const comment = String(new FormData(event.currentTarget).get('comment') ?? '').trim()
              if (comment === '') return form.show([{ field: 'comment', message: t('moderation.errors.comment') }])
              form.clear()
              reject.mutate(comment, {
                onSuccess: async () => { close(); await onRejected() },
                onError: form.fail,
              })
            }
            return (
              <>
                <ErrorSummary problems={form.problems} attempt={form.attempt} />
                <Heading slot='title'>{t('moderation.rejectTitle', { title: item.title })}</Heading>
                <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
                  <TextInput name='comment' label={t('moderation.comment')} hint={t('moderation.commentHint')} multiline maxLength={2000} />
                  <div className='actions'>
                    <Button type='submit' className='button danger'>{t('moderation.rejectConfirm')}</Button>
                    <Button slot='close' className='button secondary'>{t('moderation.back')}</Button>
                  </div>
                </Form>
              </>
            )
          }}
        </Dialog>
      </Modal>
    </DialogTrigger>
  )
}

export function ModerationPage () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const client = useQueryClient()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const pending = useQuery({ queryKey: PENDING, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/moderation/requests/pending', { params: { query: { limit: '100' } }, signal })) })
  const decided = useQuery({ queryKey: DECIDED, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/moderation/requests/my', { params: { query: { limit: '20' } }, signal })) })
  const refresh = async () => {
    await Promise.all([client.invalidateQueries({ queryKey: PENDING }), client.invalidateQueries({ queryKey: DECIDED })])
  }
  const approve = useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/api/v1/moderation/requests/{id}/approve', { params: { path: { id } }, body: {} })),
  })
  const ids = (pending.data ?? []).map((item) => item.id)
  const decidedOn = async (item: Item, key: 'moderation.approved' | 'moderation.rejected') => {
    setProblem(undefined)
    await refresh()
    focusAfter(ids, item.id)
    announce(t(key, { title: item.title }))
  }
  return (
    <Page title={t('moderation.title')}>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      <section aria-labelledby='queue-heading'>
        <h2 id='queue-heading' tabIndex={-1}>{t('moderation.queue')}</h2>
        {pending.isPending
          ? <p>{t('common.loading')}</p>
          : pending.isError
            ? <p className='error-text' role='alert'>{serverProblem(pending.error, t, []).message}</p>
            : pending.data.length === 0
              ? <p>{t('moderation.empty')}</p>
              : (
                <ul className='cards'>
                  {pending.data.map((item) => (
                    <li key={item.id} className='card'>
                      <h3 id={`pending-${item.id}`} tabIndex={-1}>{item.title}</h3>
                      <p>{item.description}</p>
                      <dl className='facts'>
                        <div><dt>{t('request.urgency')}</dt><dd>{urgencyLabel(t, item.urgency)}</dd></div>
                        <div><dt>{t('request.kind')}</dt><dd>{item.request_type_name}</dd></div>
                        <div><dt>{t('moderation.requester')}</dt><dd>{item.requester_name}</dd></div>
                        <div><dt>{t('request.where')}</dt><dd>{[item.address, item.city].filter(Boolean).join(', ')}</dd></div>
                        <div><dt>{t('request.created')}</dt><dd>{formatDateTime(item.created_at, i18n.language)}</dd></div>
                      </dl>
                      <div className='actions'>
                        <Button
                          className='button'
                          onPress={() => {
                            if (approve.isPending) return
                            approve.mutate(item.id, {
                              onSuccess: () => decidedOn(item, 'moderation.approved'),
                              onError: (error) => {
                                const message = serverProblem(error, t, []).message
                                setProblem(message)
                                announce(message)
                              },
                            })
                          }}
                        >
                          {t('moderation.approve', { title: item.title })}
                        </Button>
                        <RejectDialog item={item} onRejected={() => decidedOn(item, 'moderation.rejected')} />
                      </div>
                    </li>
                  ))}
                </ul>
                )}
      </section>
      <section aria-labelledby='decided-heading'>
        <h2 id='decided-heading'>{t('moderation.decided')}</h2>
        {decided.isPending
          ? <p>{t('common.loading')}</p>
          : decided.isError
            ? <p className='error-text' role='alert'>{serverProblem(decided.error, t, []).message}</p>
            : decided.data.length === 0
              ? <p>{t('moderation.noneDecided')}</p>
              : (
                <ul>
                  {decided.data.map((item) => <li key={item.id}>{t('moderation.decidedItem', { title: item.title, status: statusLabel(t, item.status) })}</li>)}
                </ul>
                )}
      </section>
    </Page>
  )
}
