import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import i18next, { type TFunction } from 'i18next'
import { whatToTell, type TellFacts } from './tell.js'
import { formatWhen } from '../../lib/format.js'

/** The app's own texts, in an i18next set up as web/src/i18n/index.ts sets it up. */
async function texts (language: 'en' | 'de'): Promise<TFunction> {
  const translation = JSON.parse(await readFile(new URL(`../../i18n/${language}.json`, import.meta.url), 'utf8'))
  const instance = i18next.createInstance()
  await instance.init({ resources: { [language]: { translation } }, lng: language, interpolation: { escapeValue: false }, returnNull: false })
  return instance.t
}

const AT = '2031-05-06T08:00:00Z'
const jonas = { first_name: 'Jonas' }

/** docs/web/on-behalf.md: what a coordinator tells the client on the phone, for every status of a request. */
describe('what to tell the client (web/src/features/coordinator/tell.ts)', () => {
  const cases: Array<[string, TellFacts, (when: string) => { en: string, de: string }]> = [
    ['waiting for a moderator', { status: 'pending_moderation' }, () => ({ en: 'Tell Erna: we are checking the request. Volunteers see it once it is approved.', de: 'Sagen Sie Erna: Wir prüfen die Anfrage. Helfende sehen sie, sobald sie freigegeben ist.' })],
    ['open, no volunteer', { status: 'approved', desired_completion_date: AT }, () => ({ en: 'Tell Erna: nobody yet. Volunteers nearby can see the request.', de: 'Sagen Sie Erna: Noch niemand. Helfende in der Nähe können die Anfrage sehen.' })],
    ['a volunteer, with the date wanted by', { status: 'in_progress', desired_completion_date: AT, volunteer: jonas }, (when) => ({ en: `Tell Erna: Jonas will come on ${when}.`, de: `Sagen Sie Erna: Jonas kommt am ${when}.` })],
    ['a volunteer, with a window (its start wins)', { status: 'in_progress', window_start: AT, desired_completion_date: '2031-05-06T09:00:00Z', volunteer: jonas }, (when) => ({ en: `Tell Erna: Jonas will come on ${when}.`, de: `Sagen Sie Erna: Jonas kommt am ${when}.` })],
    ['a volunteer, no time', { status: 'in_progress', volunteer: jonas }, () => ({ en: 'Tell Erna: Jonas will help. No time is agreed yet.', de: 'Sagen Sie Erna: Jonas hilft. Eine Zeit ist noch nicht vereinbart.' })],
    ['done', { status: 'completed', volunteer: jonas }, () => ({ en: 'Tell Erna: the help is done.', de: 'Sagen Sie Erna: Die Hilfe ist erledigt.' })],
    ['rejected', { status: 'rejected' }, () => ({ en: 'Tell Erna: we could not take on this request.', de: 'Sagen Sie Erna: Wir konnten diese Anfrage nicht annehmen.' })],
    ['expired', { status: 'cancelled', cancel_reason: 'expired' }, () => ({ en: 'Tell Erna: nobody could help in time.', de: 'Sagen Sie Erna: Niemand konnte rechtzeitig helfen.' })],
    ['cancelled', { status: 'cancelled', cancel_reason: 'requester' }, () => ({ en: 'Tell Erna: the request was cancelled.', de: 'Sagen Sie Erna: Die Anfrage wurde abgesagt.' })],
  ]
  for (const [name, facts, expected] of cases) {
    it(name, async () => {
      for (const language of ['en', 'de'] as const) {
        const said = whatToTell(await texts(language), language, 'Erna', facts)
        assert.equal(said, expected(formatWhen(AT, language))[language])
      }
    })
  }
})
