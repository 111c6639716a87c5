import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.js'
import { smsShape } from '../../src/lib/sms-segments.js'
import { whenText } from '../../src/lib/when.js'
import { ANSWER_OF, CLIENT_TEXT_TYPES, clientText, notificationText, phoneCodeText, replyAnswerText, replyOutcomeText, SMS_TYPES, type Locale } from '../../src/messaging/sms/sms-texts.js'
import { REPLY_ANSWERS, REPLY_OUTCOMES } from '../../src/events/notifications.js'

/**
 * docs/api/messaging.md › Texts: every text type's longest form, in both languages, counted in segments: the
 * longest title (200 characters, the interface's most), the longest day and time, the farthest distance.
 */

const LOCALES: Locale[] = ['en', 'de']
/** The longest weekday and month in either language: Wednesday/Donnerstag, September. */
const LONGEST_WHEN = '2026-09-30T21:59:00Z'
const GSM_TITLE = `Fahrt zur Dialyse für Frau Müller ${'und zurück '.repeat(20)}`.slice(0, 200)
const UCS2_TITLE = 'Покупки на неделю и аптека, '.repeat(10).slice(0, 200)
const DATA = { distance_meters: 49_999, was_accepted: true }

describe('the words of texts', () => {
  for (const locale of LOCALES) {
    it(`every type fits in 2 segments in ${locale}, GSM with the longest GSM title, UCS-2 with a Cyrillic one`, () => {
      const when = whenText(LONGEST_WHEN, locale, 'Europe/Berlin')
      const shapes: Record<string, string> = {}
      for (const type of SMS_TYPES) {
        const gsm = notificationText(locale, type, { title: GSM_TITLE, when, data: DATA })!
        const ucs2 = notificationText(locale, type, { title: UCS2_TITLE, when, data: DATA })!
        assert.equal(smsShape(gsm).encoding, 'gsm', `${type}: ${gsm}`)
        assert.equal(smsShape(ucs2).encoding, 'ucs2', type)
        assert.ok(smsShape(gsm).segments <= 2 && smsShape(ucs2).segments <= 2, type)
        // The title gives way, never the rest: the day and time are whole wherever the type names them.
        if (gsm.includes('2026') || gsm.includes('Septem')) assert.ok(gsm.includes(when!), `${type} names the whole day and time`)
        assert.match(ucs2, /"Покупки на неделю/, `${type} still names the request`)
        shapes[type] = `${smsShape(gsm).segments}/${smsShape(ucs2).segments}`
      }
      // The longest forms, as segments in GSM / UCS-2: the GSM title fits whole, the UCS-2 one is cut to fill 2.
      assert.deepEqual(new Set(Object.values(shapes)), new Set(['2/2']))
    })

    it(`a text that takes an answer ends with its keyword and code whole, within 2 segments (${locale})`, () => {
      const when = whenText(LONGEST_WHEN, locale, 'Europe/Berlin')
      const keywords = { yes: locale === 'de' ? 'JA' : 'YES', ok: 'OK', no: locale === 'de' ? 'NEIN' : 'NO' }
      for (const [type, answer] of Object.entries(ANSWER_OF)) {
        for (const title of [GSM_TITLE, UCS2_TITLE, 'Einkauf', null]) {
          const text = notificationText(locale, type as typeof SMS_TYPES[number], { title, when, data: DATA }, { answer, code: '0482' })!
          assert.ok(smsShape(text).segments <= 2, `${type}: ${text}`)
          assert.match(text, new RegExp(`${keywords[answer]} 0482\\b[^"]*$`), `${type} ends with its code`)
        }
      }
      assert.deepEqual(Object.keys(ANSWER_OF).sort(), ['confirm_needed', 'confirmation_missed', 'reminder', 'request_alert', 'still_needed', 'volunteer_confirmed'])
    })

    it(`every answer to a reply with a code fits in 2 segments, the title giving way (${locale})`, () => {
      for (const outcome of REPLY_OUTCOMES) {
        for (const title of [GSM_TITLE, UCS2_TITLE, null]) {
          const text = replyOutcomeText(locale, outcome, title)
          assert.ok(smsShape(text).segments <= 2, `${outcome}: ${text}`)
          assert.ok(!text.includes('undefined'), text)
        }
        assert.equal(smsShape(replyOutcomeText(locale, outcome, 'Einkauf')).encoding, 'gsm', outcome)
      }
    })

    it(`a short title, no day, and no title at all (${locale}): one segment`, () => {
      for (const type of SMS_TYPES) {
        const text = notificationText(locale, type, { title: 'Einkauf', when: undefined, data: {} })!
        assert.deepEqual([smsShape(text).segments, smsShape(text).encoding], [1, 'gsm'], text)
        assert.ok(!text.includes('undefined'), text)
        const untitled = notificationText(locale, type, { title: null, when: undefined, data: {} })!
        assert.equal(smsShape(untitled).segments, 1, untitled)
      }
      const code = phoneCodeText(locale, '048213')
      assert.deepEqual([smsShape(code).segments, smsShape(code).encoding], [1, 'gsm'])
      assert.match(code, /048213/)
    })
  }

  it('types that have no text are not texted', () => {
    assert.equal(notificationText('en', 'check_expiring', { title: null, when: undefined, data: {} }), undefined)
    assert.equal(notificationText('de', 'trust_invitation', { title: null, when: undefined, data: {} }), undefined)
  })

  it('names the day and time in words, in the language', () => {
    const when = whenText('2026-12-08T09:30:00Z', 'de', 'Europe/Berlin')
    assert.equal(notificationText('de', 'reminder', { title: 'Arzttermin', when, data: {} }), 'Erinnerung: "Arzttermin" am Dienstag, 8. Dezember um 10:30.')
    assert.equal(notificationText('en', 'reminder', { title: 'Doctor', when: whenText('2026-12-08T09:30:00Z', 'en', 'Europe/Berlin'), data: {} }), 'Reminder: "Doctor" on Tuesday 8 December at 10:30.')
  })
})

describe('the words of a coordinator\'s client\'s texts (docs/api/on-behalf.md › Texts to a client)', () => {
  // A profile's first name is at most 100 characters; the longest, in GSM and outside it, with the longest titles.
  const NAMES = ['Maximiliane-Wilhelmine '.repeat(5).slice(0, 100), 'Ярослава-Станислава '.repeat(6).slice(0, 100), null]
  for (const locale of LOCALES) {
    it(`every type fits in 2 segments in ${locale} with the longest name, title and day, the day and time whole`, () => {
      const when = whenText(LONGEST_WHEN, locale, 'Europe/Berlin')!
      for (const type of CLIENT_TEXT_TYPES) {
        for (const helper of NAMES) {
          for (const title of [GSM_TITLE, UCS2_TITLE]) {
            const text = clientText(locale, type, { title, when, data: DATA, helper })!
            assert.ok(smsShape(text).segments <= 2, `${type} ${locale}: ${text}`)
            assert.ok(text.includes(when), `${type} names the whole day and time: ${text}`)
            assert.match(text, /"(Fahrt zur Dialyse|Покупки на неделю)/, `${type} still names the request`)
          }
        }
      }
    })
  }

  it('names the volunteer by first name only, cut when long, "A volunteer" when unknown; no type beyond the six', () => {
    const when = whenText('2026-12-12T09:00:00Z', 'en', 'Europe/Berlin')
    assert.equal(clientText('en', 'response_accepted', { title: 'Lift to the doctor', when, data: {}, helper: 'Vera' }),
      'Vera will help you with "Lift to the doctor" on Saturday 12 December at 10:00.')
    assert.equal(clientText('de', 'response_accepted', { title: 'Fahrt zum Arzt', when: whenText('2026-12-12T09:00:00Z', 'de', 'Europe/Berlin'), data: {}, helper: 'Vera' }),
      'Vera hilft Ihnen bei "Fahrt zum Arzt" am Samstag, 12. Dezember um 10:00.')
    assert.equal(clientText('en', 'response_accepted', { title: null, when: undefined, data: {}, helper: null }), 'A volunteer will help you with your request.')
    assert.match(clientText('de', 'response_accepted', { title: 'Einkauf', when: undefined, data: {}, helper: 'A'.repeat(40) })!, /^A{27}\.\.\. hilft Ihnen bei "Einkauf"\.$/)
    assert.equal(clientText('en', 'request_cancelled', { title: 'Einkauf', when, data: {}, helper: null }), 'Your request "Einkauf" on Saturday 12 December at 10:00 was cancelled.')
    for (const type of ['confirm_needed', 'request_alert', 'series_invitation', 'request_approved'] as const) {
      assert.equal(clientText('en', type, { title: 'Einkauf', when, data: {}, helper: 'Vera' }), undefined, type)
    }
  })
})

describe('the answers to STOP, START and HELP (docs/api/messaging.md › Texts › Replies), and to a text not understood', () => {
  it('fit in 2 segments in both languages with the longest service name, which is cut; HELP gets SMS_HELP_TEXT as it is', () => {
    const help = { name: 'Nachbarschaftshilfe für ältere Menschen im Bezirk '.repeat(6).trim(), url: 'https://nachbarschaftshilfe.example.org', text: undefined }
    for (const locale of LOCALES) {
      for (const answer of REPLY_ANSWERS) {
        const text = replyAnswerText(locale, answer, help)
        assert.ok(smsShape(text).segments <= 2, `${locale} ${answer}: ${text}`)
        // The answer to a text not understood names no service.
        if (answer !== 'sms_sorry') assert.match(text, /Nachbarschaftshilfe für ältere.*\.\.\./, 'the name cut with "..."')
      }
      assert.equal(replyAnswerText(locale, 'sms_help', { ...help, text: 'Call 030 1234567' }), 'Call 030 1234567')
    }
    assert.equal(replyAnswerText('en', 'sms_stopped', { name: 'Neighbourly help', url: 'x', text: undefined }), 'You will get no more texts from Neighbourly help. Reply START to get them again.')
  })

  it('the answer to a text not understood (› The inbox) is one GSM segment in both languages, and never SMS_HELP_TEXT', () => {
    const help = { name: 'Neighbourly help', url: 'https://help.example.org', text: 'Call 030 1234567' }
    const words = { en: 'Sorry, we did not understand. Reply HELP for help.', de: 'Entschuldigung, wir haben Sie nicht verstanden. Antworten Sie HILFE für Hilfe.' }
    for (const locale of LOCALES) {
      const text = replyAnswerText(locale, 'sms_sorry', help)
      assert.equal(text, words[locale])
      assert.deepEqual([smsShape(text).segments, smsShape(text).encoding], [1, 'gsm'])
    }
  })
})

describe('the texts\' settings', () => {
  const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env))

  it('reads the budgets and the HELP text; refuses a HELP text over 2 segments', () => {
    const config = loadConfig({ SMS_DAILY_LIMIT_PER_NUMBER: '3', SMS_DAILY_LIMIT: '1000000', SMS_HELP_TEXT: 'Nachbarschaftshilfe: help.example.org, 030 1234567' })
    assert.deepEqual([config.smsDailyLimitPerNumber, config.smsDailyLimit, config.smsHelpText], [3, 1_000_000, 'Nachbarschaftshilfe: help.example.org, 030 1234567'])
    for (const [name, value] of [['SMS_DAILY_LIMIT_PER_NUMBER', '0'], ['SMS_DAILY_LIMIT_PER_NUMBER', '1001'], ['SMS_DAILY_LIMIT', '1000001']] as const) refused({ [name]: value }, new RegExp(`^${name} must be`))
    refused({ SMS_HELP_TEXT: 'Ж'.repeat(139) }, /^SMS_HELP_TEXT must fit in 2 text segments, got 3/)
  })
})
