import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Checkbox, CheckboxGroup, Dialog, Heading, Label, Modal } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { roleName } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'

interface Change { roleId: number, give: boolean }

/**
 * A person's roles as checkboxes (docs/web/help.md › Users). Ticking or unticking one asks first,
 * in a dialog ("Give Vera Tester the Administrator role?"): a role is power over others' data, so one stray
 * Space press must not give or take it. A refused change says why beside the group.
 */
export function UserRoles ({ userId, name, held, roles, onChanged }: {
  userId: number
  name: string
  held: number[]
  roles: Array<{ id: number, name: string }>
  onChanged: () => Promise<void>
}) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const [pending, setPending] = useState<Change | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const label = (roleId: number) => roleName(t, roles.find((role) => role.id === roleId)?.name ?? String(roleId))
  const save = useMutation({
    mutationFn: ({ roleId, give }: Change) => {
      const path = { params: { path: { user_id: userId, role_id: roleId } } }
      return give
        ? unwrap(api.POST('/api/v1/admin/users/{user_id}/roles/{role_id}', path))
        : unwrap(api.DELETE('/api/v1/admin/users/{user_id}/roles/{role_id}', path))
    },
    onSuccess: async (_answer, { roleId, give }) => {
      setProblem(undefined)
      setPending(undefined)
      await onChanged()
      success(t(give ? 'admin.roleGiven' : 'admin.roleTaken', { role: label(roleId), name }))
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      setPending(undefined)
      announce(message)
    },
  })
  const ask = (selected: string[]) => {
    if (save.isPending || pending !== undefined) return
    const given = selected.map(Number).find((id) => !held.includes(id))
    const taken = held.find((id) => !selected.includes(String(id)))
    if (given !== undefined) setPending({ roleId: given, give: true })
    else if (taken !== undefined) setPending({ roleId: taken, give: false })
  }
  // While the question is open the boxes show the change asked about; cancelling puts them back.
  const shown = pending === undefined ? held : pending.give ? [...held, pending.roleId] : held.filter((id) => id !== pending.roleId)
  return (
    <>
      <CheckboxGroup className='checkboxes' value={shown.map(String)} onChange={ask} isInvalid={problem !== undefined}>
        <Label className='legend'>{t('admin.rolesOf', { name })}</Label>
        {roles.map((role) => (
          <Checkbox key={role.id} value={String(role.id)} className='checkbox'><span className='box' aria-hidden='true' />{roleName(t, role.name)}</Checkbox>
        ))}
      </CheckboxGroup>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      {/* A dialog (React Aria: focus moves in, stays in, and goes back to the checkbox when it closes). */}
      <Modal className='modal' isDismissable isOpen={pending !== undefined} onOpenChange={(open) => { if (!open) setPending(undefined) }}>
        <Dialog className='dialog'>
          {pending === undefined
            ? null
            : (
              <>
                <Heading slot='title' className='dialog-title'>{t(pending.give ? 'admin.confirmGive' : 'admin.confirmTake', { role: label(pending.roleId), name })}</Heading>
                <p>{t(pending.give ? 'admin.confirmGiveText' : 'admin.confirmTakeText', { name })}</p>
                <div className='actions'>
                  <Button className={pending.give ? 'button' : 'button danger'} onPress={() => { if (!save.isPending) save.mutate(pending) }}>
                    {t(pending.give ? 'admin.yesGive' : 'admin.yesTake')}
                  </Button>
                  <Button className='button secondary' slot='close'>{t('admin.keep')}</Button>
                </div>
              </>
              )}
        </Dialog>
      </Modal>
    </>
  )
}
