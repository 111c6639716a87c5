import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button, Dialog, Form, Heading, Modal, ModalOverlay } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useFormProblems } from '../../components/use-form-problems'
import { concernOutcome } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'

const FIELDS = ['outcome', 'note'] as const
const OUTCOMES = ['no_action', 'warned', 'referred', 'blocked'] as const
type Outcome = typeof OUTCOMES[number]

export interface ConcernToResolve { id: number, subject_user_id: number | null, heading: string }

/**
 * Resolving a concern: an outcome and a note, both required (docs/api/help.md › Concerns). `blocked` ends the person's
 * sessions at once, so it is asked again in words before it is sent; a concern about no person cannot
 * block anyone and does not offer it.
 */
export function ResolveDialog ({ concern, onClose, onResolved }: { concern: ConcernToResolve, onClose: () => void, onResolved: (outcome: Outcome) => void }) {
  const { t } = useTranslation()
  const form = useFormProblems(FIELDS)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [note, setNote] = useState('')
  const [confirming, setConfirming] = useState(false)
  // The question "Block …?" replaces the form: the dialog takes focus, so that it is read from its title.
  const dialog = useRef<HTMLElement>(null)
  useEffect(() => { if (confirming) dialog.current?.focus() }, [confirming])
  const resolve = useMutation({
    mutationFn: (body: { outcome: Outcome, note: string }) => unwrap(api.POST('/api/v1/moderation/concerns/{id}/resolve', { params: { path: { id: concern.id } }, body })),
    onSuccess: (_answer, body) => onResolved(body.outcome),
    onError: (error) => {
      setConfirming(false)
      form.show([serverProblem(error, t, FIELDS)])
    },
  })
  const send = () => {
    if (resolve.isPending || outcome === null) return
    resolve.mutate({ outcome, note: note.trim() })
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const problems = [
      ...(outcome === null ? [{ field: 'outcome', message: t('moderation.concerns.errors.outcome') }] : []),
      ...(note.trim() === '' ? [{ field: 'note', message: t('moderation.concerns.errors.note') }] : []),
    ]
    if (problems.length > 0) return form.show(problems)
    form.clear()
    if (outcome === 'blocked') setConfirming(true)
    else send()
  }
  const outcomes = OUTCOMES.filter((value) => value !== 'blocked' || concern.subject_user_id !== null)
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => { if (!open) onClose() }} className='modal-overlay'>
      <Modal className='modal'>
        <Dialog className='dialog' ref={dialog}>
          {confirming
            ? (
              <>
                <Heading slot='title' className='dialog-title'>{t('moderation.concerns.blockTitle')}</Heading>
                <p>{t('moderation.concerns.blockText')}</p>
                <div className='actions'>
                  <Button className='button danger' onPress={send}>{t('moderation.concerns.blockConfirm')}</Button>
                  <Button className='button secondary' onPress={() => setConfirming(false)}>{t('moderation.concerns.blockBack')}</Button>
                </div>
              </>
              )
            : (
              <>
                <Heading slot='title' className='dialog-title'>{t('moderation.concerns.resolveTitle', { heading: concern.heading })}</Heading>
                <ErrorSummary problems={form.problems} attempt={form.attempt} />
                <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
                  <Choice name='outcome' label={t('moderation.concerns.outcome')} value={outcome} onChange={(value) => setOutcome(value as Outcome)} options={outcomes.map((value) => ({ value, label: concernOutcome(t, value), description: t(`moderation.concerns.outcomeHints.${value}`) }))} />
                  <TextInput name='note' label={t('moderation.concerns.note')} hint={t('moderation.concerns.noteHint')} multiline maxLength={2000} value={note} onChange={setNote} />
                  <div className='actions'>
                    <Button type='submit' className='button'>{t('moderation.concerns.resolve')}</Button>
                    <Button className='button secondary' onPress={onClose}>{t('moderation.dialog.cancel')}</Button>
                  </div>
                </Form>
              </>
              )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
