import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { responsesKey } from '../../api/keys'
import { useAnnounce } from '../../components/announcer'
import { Loading } from '../../components/loading'
import { focusPageHeading } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { WorriedLink } from '../../components/worried-link'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { useInvalidate } from './invalidate'
import { actionProblem } from './standing'
import { TrustSignals } from './trust-signals'

type Decision = 'accept' | 'reject'

/**
 * Offers on the request, with their trust signals; while it is open and `decide` is true (the requester, or a
 * carer granted `accept`, which the API also asks for turning one down), "Accept" and "Turn down" on each
 * pending one. `person` names whom a carer decides for, in the banner and in a refusal. A pending offer waits for
 * "your answer" only when the reader decides for herself; a carer or a reader who cannot decide reads "an answer".
 */
export function Offers ({ id, open, decide, person }: { id: number, open: boolean, decide: boolean, person?: string }) {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const invalidate = useInvalidate(id)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const offers = useQuery({ queryKey: responsesKey(id), queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/responses', { params: { path: { id } }, signal })) })
  const decision = useMutation({
    mutationFn: async ({ how, responseId }: { how: Decision, responseId: number }): Promise<void> => {
      const init = { params: { path: { id, response_id: responseId } } }
      if (how === 'accept') await unwrap(api.POST('/api/v1/requests/{id}/responses/{response_id}/accept', init))
      else await unwrap(api.POST('/api/v1/requests/{id}/responses/{response_id}/reject', init))
    },
    onSuccess: async (_result, { how, responseId }) => {
      setProblem(undefined)
      const name = offers.data?.find((offer) => offer.id === responseId)?.volunteer_name ?? ''
      await invalidate()
      const done = how === 'accept' ? 'offers.accepted' : 'offers.rejected'
      success(person !== undefined ? t(`${done}For`, { name, person }) : t(done, { name }))
      focusPageHeading()
    },
    onError: (error) => {
      const message = actionProblem(error, t, person)
      setProblem(message)
      announce(message)
    },
  })
  const press = (how: Decision, responseId: number) => { if (!decision.isPending) decision.mutate({ how, responseId }) }
  return (
    <section aria-labelledby='offers-heading'>
      <h2 id='offers-heading'>{t('offers.title')}</h2>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      {offers.isPending
        ? <Loading query={offers} />
        : offers.isError
          ? <p className='error-text' role='alert'>{serverProblem(offers.error, t, []).message}</p>
          : offers.data.length === 0
            ? <p>{t('offers.none')}</p>
            : (
              <ul className='cards'>
                {offers.data.map((offer) => (
                  <li key={offer.id} className='card'>
                    <h3>{offer.volunteer_name}</h3>
                    <TrustSignals volunteer={offer.volunteer} />
                    <dl className='facts'>
                      <div><dt>{t('request.status')}</dt><dd>{t(`offerStatus.${offer.status === 'pending' && (!decide || person !== undefined) ? 'pendingOthers' : offer.status}`, { defaultValue: offer.status })}</dd></div>
                      <div><dt>{t('offers.when')}</dt><dd>{formatDate(offer.responded_at, i18n.language)}</dd></div>
                    </dl>
                    {offer.message !== null ? <blockquote>{offer.message}</blockquote> : null}
                    {decide && open && offer.status === 'pending'
                      ? (
                        <div className='actions'>
                          <Button className='button' onPress={() => press('accept', offer.id)}>{t('offers.accept', { name: offer.volunteer_name })}</Button>
                          <Button className='button secondary' onPress={() => press('reject', offer.id)}>{t('offers.reject', { name: offer.volunteer_name })}</Button>
                        </div>
                        )
                      : null}
                    <WorriedLink requestId={id} personId={offer.volunteer_id} about={offer.volunteer_name} />
                  </li>
                ))}
              </ul>
              )}
    </section>
  )
}
