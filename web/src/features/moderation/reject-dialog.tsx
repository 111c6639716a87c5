import { useMutation } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { Button, Dialog, Form, Heading, Modal, ModalOverlay } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'

const COMMENT_FIELDS = ['comment'] as const

/**
 * Reject needs a reason: asked for in a dialog named after what is rejected (a request, regular help), its
 * error beside the field and in the dialog's own summary. `run` sends the reason; `confirm` names the button.
 */
export function RejectDialog ({ title, confirm, run, onClose, onRejected }: {
  title: string, confirm: string, run: (comment: string) => Promise<unknown>, onClose: () => void, onRejected: (result: unknown) => void
}) {
  const { t } = useTranslation()
  const form = useFormProblems(COMMENT_FIELDS)
  const reject = useMutation({
    mutationFn: run,
    onSuccess: (result) => onRejected(result),
    onError: (error) => form.show([serverProblem(error, t, COMMENT_FIELDS)]),
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (reject.isPending) return
    const comment = String(new FormData(event.currentTarget).get('comment') ?? '').trim()
    if (comment === '') return form.show([{ field: 'comment', message: t('moderation.errors.commentRequired') }])
    form.clear()
    reject.mutate(comment)
  }
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => { if (!open) onClose() }} className='modal-overlay'>
      <Modal className='modal'>
        <Dialog className='dialog'>
          <Heading slot='title' className='dialog-title'>{t('moderation.dialog.title', { title })}</Heading>
          <ErrorSummary problems={form.problems} attempt={form.attempt} />
          <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
            <TextInput name='comment' label={t('moderation.dialog.comment')} hint={t('moderation.dialog.commentHint')} multiline maxLength={2000} />
            <div className='actions'>
              <Button type='submit' className='button danger'>{confirm}</Button>
              <Button className='button secondary' onPress={onClose}>{t('moderation.dialog.cancel')}</Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
