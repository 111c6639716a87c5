import { useMutation } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { serverProblem } from '../i18n/server-errors'
import { useAnnounce } from './announcer'
import { focusPageHeading } from './page'
import { useSuccess } from './success-banner'

/** The words of a change that asks first: the button, the dialog's title and text, and its two answers. */
export interface ConfirmedWords { open: string, title: string, text: ReactNode, confirm: string, keep: string, done: string }

/**
 * A change that cannot be undone (cancelling a request, stopping regular help) asks first in a dialog
 * (React Aria: focus moves in, stays in, and returns on close). Done: the banner says so and focus goes
 * to the page's heading, or, with `landsOn` (when the page's subject is gone), the banner shows on that page;
 * refused: the reason is shown above the button and announced (`explain` words it when the page knows more
 * than the API's text, as a carer's page does).
 */
export function ConfirmedAction<T> ({ words, run, onDone, landsOn, explain }: {
  words: ConfirmedWords, run: () => Promise<T>, onDone: (result: T) => Promise<unknown>, landsOn?: string, explain?: (error: unknown) => string
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const success = useSuccess()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const action = useMutation({ mutationFn: run })
  return (
    <>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      <DialogTrigger>
        <Button className='button danger'>{words.open}</Button>
        <Modal className='modal' isDismissable>
          <Dialog className='dialog'>
            {({ close }) => (
              <>
                <Heading slot='title'>{words.title}</Heading>
                {typeof words.text === 'string' ? <p>{words.text}</p> : words.text}
                <div className='actions'>
                  <Button
                    className='button danger'
                    onPress={() => {
                      if (action.isPending) return
                      action.mutate(undefined, {
                        onSuccess: async (result) => {
                          close()
                          setProblem(undefined)
                          await onDone(result)
                          success(words.done, landsOn)
                          if (landsOn !== undefined) void navigate(landsOn)
                          else focusPageHeading()
                        },
                        onError: (error) => {
                          close()
                          const message = explain !== undefined ? explain(error) : serverProblem(error, t, []).message
                          setProblem(message)
                          announce(message)
                        },
                      })
                    }}
                  >
                    {words.confirm}
                  </Button>
                  <Button className='button secondary' slot='close'>{words.keep}</Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </DialogTrigger>
    </>
  )
}
