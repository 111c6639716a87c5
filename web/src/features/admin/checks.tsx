import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Dialog, DialogTrigger, Form, Heading, Link, Modal } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { profileKey } from '../../api/keys'
import { useAnnounce } from '../../components/announcer'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useFormProblems } from '../../components/use-form-problems'
import { useSuccess } from '../../components/success-banner'
import { checkKind } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate, formatDay, today } from '../../lib/format'

const KINDS = ['identity', 'background', 'training', 'reference'] as const
const FIELDS = ['kind', 'note', 'valid_until'] as const
export const checksKey = (userId: number) => ['get', '/api/v1/admin/users/{id}/checks', userId] as const

function loadChecks (userId: number, signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/admin/users/{id}/checks', { params: { path: { id: userId } }, signal }))
}
type Check = Awaited<ReturnType<typeof loadChecks>>[number]

/** Whether a check counts, in words: revoked, expired (its day has passed) or valid, until when. */
function checkState (check: Check, t: ReturnType<typeof useTranslation>['t'], language: string): string {
  if (check.revoked_at !== null) return t('checks.revokedOn', { date: formatDate(check.revoked_at, language) })
  if (check.valid_until === null) return t('checks.validForever')
  if (check.valid_until < today()) return t('checks.expiredOn', { date: formatDay(check.valid_until, language) })
  return t('checks.validUntil', { date: formatDay(check.valid_until, language) })
}

/** Revoking asks first: the check stops counting at once (and with it, for identity, "verified"). */
function Revoke ({ check, name, onRevoke }: { check: Check, name: string, onRevoke: () => void }) {
  const { t } = useTranslation()
  const [isOpen, setOpen] = useState(false)
  const kind = checkKind(t, check.kind)
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button className='button secondary' aria-label={t('checks.revokeNamed', { kind })}>{t('checks.revoke')}</Button>
      <Modal className='modal' isDismissable>
        <Dialog className='dialog'>
          <Heading slot='title' className='dialog-title'>{t('checks.revokeTitle', { kind, name })}</Heading>
          <p>{t('checks.revokeText')}</p>
          <div className='actions'>
            <Button className='button danger' onPress={() => { setOpen(false); onRevoke() }}>{t('checks.revokeConfirm')}</Button>
            <Button className='button secondary' slot='close'>{t('checks.revokeKeep')}</Button>
          </div>
        </Dialog>
      </Modal>
    </DialogTrigger>
  )
}

/** Recording a check: its kind, a note (optional) and the last day it is valid (optional: none means it does not expire). */
function RecordCheck ({ userId, onRecorded }: { userId: number, onRecorded: (kind: string) => Promise<void> }) {
  const { t } = useTranslation()
  const form = useFormProblems(FIELDS)
  const [kind, setKind] = useState<string | null>(null)
  const [note, setNote] = useState('')
  const [until, setUntil] = useState('')
  const record = useMutation({
    mutationFn: (body: { kind: typeof KINDS[number], note?: string, valid_until?: string }) => unwrap(api.POST('/api/v1/admin/users/{id}/checks', { params: { path: { id: userId } }, body })),
    onSuccess: async (check) => {
      setKind(null)
      setNote('')
      setUntil('')
      await onRecorded(check.kind)
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (record.isPending) return
    const problems = [
      ...(kind === null ? [{ field: 'kind', message: t('checks.errors.kind') }] : []),
      ...(until !== '' && (!/^\d{4}-\d{2}-\d{2}$/.test(until) || until < today()) ? [{ field: 'valid_until', message: t('checks.errors.validUntil') }] : []),
    ]
    if (problems.length > 0) return form.show(problems)
    form.clear()
    record.mutate({ kind: kind as typeof KINDS[number], ...(note.trim() !== '' ? { note: note.trim() } : {}), ...(until !== '' ? { valid_until: until } : {}) })
  }
  return (
    <section aria-labelledby='record-check-heading'>
      <h2 id='record-check-heading'>{t('checks.recordTitle')}</h2>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <Choice name='kind' label={t('checks.kind')} value={kind} onChange={setKind} options={KINDS.map((value) => ({ value, label: checkKind(t, value) }))} />
        <TextInput name='note' label={t('checks.note')} hint={t('checks.noteHint')} optional multiline maxLength={500} value={note} onChange={setNote} />
        <TextInput name='valid_until' type='date' label={t('checks.validUntilField')} hint={t('checks.validUntilHint')} optional value={until} onChange={setUntil} />
        <Button type='submit' className='button'>{t('checks.record')}</Button>
      </Form>
    </section>
  )
}

/**
 * A person's checks (docs/api/accounts.md › Checks that vet volunteers), for moderators and admins: every check, newest first, revoked ones
 * included, each with its state in words; record one, revoke one after a confirmation.
 */
export function Checks ({ userId, name }: { userId: number, name: string }) {
  const { t, i18n } = useTranslation()
  const success = useSuccess()
  const announce = useAnnounce()
  const client = useQueryClient()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const checks = useQuery({ queryKey: checksKey(userId), queryFn: ({ signal }) => loadChecks(userId, signal) })
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: checksKey(userId) }), client.invalidateQueries({ queryKey: profileKey(userId) })])
  const revoke = useMutation({
    mutationFn: (check: Check) => unwrap(api.POST('/api/v1/admin/users/{id}/checks/{check_id}/revoke', { params: { path: { id: userId, check_id: check.id } } })),
    onSuccess: async (check) => {
      setProblem(undefined)
      await refresh()
      success(t('checks.revoked', { kind: checkKind(t, check.kind), name }))
      document.getElementById('checks-heading')?.focus()
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  return (
    <>
      <section aria-labelledby='checks-heading'>
        <h2 id='checks-heading' tabIndex={-1}>{t('checks.title')}</h2>
        {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
        {checks.isPending
          ? <p>{t('common.loading')}</p>
          : checks.isError
            ? <p className='error-text'>{serverProblem(checks.error, t).message}</p>
            : checks.data.length === 0
              ? <p>{t('checks.none', { name })}</p>
              : (
                <ul className='cards'>
                  {checks.data.map((check) => (
                    <li key={check.id}>
                      <article className='card' aria-labelledby={`check-${check.id}`}>
                        <h3 id={`check-${check.id}`}>{checkKind(t, check.kind)}</h3>
                        <dl className='facts'>
                          <div><dt>{t('checks.state')}</dt><dd>{checkState(check, t, i18n.language)}</dd></div>
                          <div>
                            <dt>{t('checks.recordedBy')}</dt>
                            <dd>
                              {check.verified_by !== null ? <Link href={`/people/${check.verified_by}`}>{check.verified_by_name ?? t('moderation.concerns.personNumber', { id: check.verified_by })}</Link> : t('checks.carriedOver')}, {formatDate(check.verified_at, i18n.language)}
                            </dd>
                          </div>
                          {check.note !== null ? <div><dt>{t('checks.note')}</dt><dd className='pre-line'>{check.note}</dd></div> : null}
                        </dl>
                        {check.revoked_at === null ? <Revoke check={check} name={name} onRevoke={() => { if (!revoke.isPending) revoke.mutate(check) }} /> : null}
                      </article>
                    </li>
                  ))}
                </ul>
                )}
      </section>
      <RecordCheck
        userId={userId}
        onRecorded={async (kind) => {
          await refresh()
          success(t('checks.recorded', { kind: checkKind(t, kind), name }))
          document.getElementById('checks-heading')?.focus()
        }}
      />
    </>
  )
}
