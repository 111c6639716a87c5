import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { CLIENTS_KEY, type Client } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { ConfirmedAction } from '../../components/confirmed-action'
import { COORDINATED_KEY } from './requests'

/**
 * "Erase this client's record" (DELETE /clients/{id}, docs/privacy.md › Clients of the coordinators): asks first in a
 * dialog that says in plain words what erasing does and that it cannot be undone; Escape or "Keep" keeps the record.
 * A refusal (a volunteer is helping with one of their requests now) is said in words above the button. Erased,
 * the coordinator is back at the search with the banner, since the record's page is gone.
 */
export function EraseClient ({ client }: { client: Client }) {
  const { t } = useTranslation()
  const queries = useQueryClient()
  const name = `${client.first_name} ${client.last_name}`
  const first = client.first_name
  return (
    <section aria-labelledby='erase-client'>
      <h2 id='erase-client'>{t('coordinator.erase.heading')}</h2>
      <p>{t('coordinator.erase.when', { name: first })}</p>
      <ConfirmedAction
        words={{
          open: t('coordinator.erase.open'),
          title: t('coordinator.erase.title', { name }),
          text: (
            <>
              <p>{t('coordinator.erase.lead')}</p>
              <ul>
                <li>{t('coordinator.erase.record', { name: first })}</li>
                <li>{t('coordinator.erase.open_requests')}</li>
                <li>{t('coordinator.erase.finished')}</li>
              </ul>
              <p>{t('coordinator.erase.refused')}</p>
            </>
          ),
          confirm: t('coordinator.erase.confirm'),
          keep: t('coordinator.erase.keep'),
          done: t('coordinator.erase.done', { name }),
        }}
        run={() => unwrap(api.DELETE('/api/v1/clients/{id}', { params: { path: { id: client.id } } }))}
        // The list and the client requests (now cancelled) are read again; the record's own query is left for
        // the page that is being left, which would otherwise fetch it again and show "not found" first.
        onDone={() => Promise.all([
          queries.invalidateQueries({ queryKey: CLIENTS_KEY }),
          queries.invalidateQueries({ queryKey: COORDINATED_KEY }),
        ])}
        landsOn='/clients'
      />
    </section>
  )
}
