import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import i18next, { type TFunction } from 'i18next'
import { describeNotification } from './describe.js'

/** The app's own texts, in an i18next set up as web/src/i18n/index.ts sets it up. */
async function texts (language: 'en' | 'de'): Promise<TFunction> {
  const translation = JSON.parse(await readFile(new URL(`../../i18n/${language}.json`, import.meta.url), 'utf8'))
  const instance = i18next.createInstance()
  await instance.init({ resources: { [language]: { translation } }, lng: language, interpolation: { escapeValue: false }, returnNull: false })
  return instance.t
}

const ME = 7

/** The three safeguarding notifications in words and with their pages (docs/api/messaging.md › Notifications), in both languages. */
describe('safeguarding notifications in words', () => {
  it('check_expiring: the kind and the day in words; one’s own leads to the account page, another’s to that person’s checks', async () => {
    const en = await texts('en')
    const own = describeNotification({ type: 'check_expiring', request_id: null, data: { user_id: ME, kind: 'background', valid_until: '2026-12-25' } }, en, 'en', undefined, ME)
    assert.deepEqual(own, { text: 'Your check “Background check” runs out on 25 December 2026: ask your organisation to renew it', href: '/profile' })
    const other = describeNotification({ type: 'check_expiring', request_id: null, data: { user_id: 40, kind: 'identity', valid_until: '2026-12-25' } }, en, 'en', undefined, ME)
    assert.deepEqual(other, { text: 'A volunteer’s check “Identity” runs out on 25 December 2026', href: '/people/40' })
    const de = await texts('de')
    assert.equal(describeNotification({ type: 'check_expiring', request_id: null, data: { user_id: ME, kind: 'training', valid_until: '2027-01-03' } }, de, 'de', undefined, ME).text,
      'Ihre Prüfung „Schulung“ läuft am 3. Januar 2027 ab: Bitten Sie Ihre Organisation, sie zu erneuern')
  })

  it('concern_raised: urgent or not, never the text, to the concerns queue (not the request, even when it has one)', async () => {
    const en = await texts('en')
    assert.deepEqual(describeNotification({ type: 'concern_raised', request_id: 12, data: { concern_id: 3, urgent: true } }, en, 'en', 'Shopping', ME),
      { text: 'Urgent: someone may be in danger. A new concern waits in the concerns queue', href: '/moderation/concerns' })
    assert.deepEqual(describeNotification({ type: 'concern_raised', request_id: null, data: { concern_id: 4, urgent: false } }, en, 'en', undefined, ME),
      { text: 'Someone is worried: a new concern waits in the concerns queue', href: '/moderation/concerns' })
    const de = await texts('de')
    assert.equal(describeNotification({ type: 'concern_raised', request_id: null, data: { concern_id: 4, urgent: true } }, de, 'de', undefined, ME).text,
      'Dringend: Jemand ist vielleicht in Gefahr. Ein neuer Hinweis wartet bei den Hinweisen der Moderation')
  })

  it('concern_resolved: the outcome in words, to My concerns', async () => {
    const en = await texts('en')
    const expected: Record<string, string> = {
      no_action: 'The moderators looked into it and decided no action was needed.',
      warned: 'The moderators warned the person.',
      blocked: 'The moderators blocked the person’s account.',
      referred: 'The moderators passed it on to someone who can help further.',
    }
    for (const [outcome, sentence] of Object.entries(expected)) {
      assert.deepEqual(describeNotification({ type: 'concern_resolved', request_id: 12, data: { concern_id: 3, outcome } }, en, 'en', 'Shopping', ME),
        { text: `The concern you raised has been dealt with. ${sentence}`, href: '/concerns/mine' })
    }
    const de = await texts('de')
    assert.equal(describeNotification({ type: 'concern_resolved', request_id: null, data: { concern_id: 3, outcome: 'warned' } }, de, 'de', undefined, ME).text,
      'Ihr Hinweis wurde bearbeitet. Die Moderation hat die Person verwarnt.')
  })
})

/** Carers' notifications name the person, and lead where the reader acts on them. */
describe('carers\' notifications in words', () => {
  it('request_created_for_you names the carer and leads to the person\'s own request; trust_invitation names the inviter and leads to People I help', async () => {
    const en = await texts('en')
    assert.deepEqual(describeNotification({ type: 'request_created_for_you', request_id: 12, data: { by_name: 'Sabine Müller' } }, en, 'en', 'Shopping', ME),
      { text: 'Sabine Müller asked for help for you: “Shopping”', href: '/requests/12' })
    assert.deepEqual(describeNotification({ type: 'trust_invitation', request_id: null, data: { invitation_id: 3, from_name: 'Rosa Müller' } }, en, 'en', undefined, ME),
      { text: 'Rosa Müller asks you to help them with their requests: accept or decline under “People I help”', href: '/people-i-help' })
    const de = await texts('de')
    assert.equal(describeNotification({ type: 'request_created_for_you', request_id: 12, data: { by_name: 'Sabine Müller' } }, de, 'de', undefined, ME).text,
      'Sabine Müller hat für Sie um Hilfe gebeten')
    assert.equal(describeNotification({ type: 'trust_invitation', request_id: null, data: { invitation_id: 3, from_name: 'Rosa Müller' } }, de, 'de', undefined, ME).text,
      'Rosa Müller bittet Sie, bei den eigenen Anfragen zu helfen: annehmen oder ablehnen unter „Wem ich helfe“')
  })
})
