import { isEmailAccountMessage } from '../../events/notifications.js'
import type { UnsubscribeTokens } from '../../lib/unsubscribe.js'
import { whenText } from '../../lib/when.js'
import type { OutgoingDelivery } from './channel.js'
import { DE } from './email-texts.de.js'
import { EN } from './email-texts.en.js'
import type { MessageText, Texts } from './email-texts.js'

const TEXTS: Record<OutgoingDelivery['locale'], Texts> = { en: EN, de: DE }

/** An e-mail ready for the transport: both parts, and the unsubscribe headers of a notification's e-mail. */
export interface ComposedEmail { subject: string, text: string, html: string, headers: Record<string, string> }

export interface LinkSettings {
  /** PUBLIC_URL (or http://HOST:PORT), without a trailing slash. */
  publicUrl: string
  unsubscribe: UnsubscribeTokens
}

interface Link { label: string, url: string }

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * One delivery's e-mail in its recipient's language (docs/api/messaging.md › Deliveries and e-mail). A code only
 * ever travels in a link's fragment, which browsers do not send to the server. The HTML part is made
 * from the same words as the text part, every one of them escaped.
 */
export function composeEmail (delivery: OutgoingDelivery, links: LinkSettings): ComposedEmail {
  const texts = TEXTS[delivery.locale]
  const base = links.publicUrl
  const { notification, account, invitation } = delivery
  let words: MessageText
  let action: Link | undefined
  let footer: { text: string, links: Link[] }
  const headers: Record<string, string> = {}
  if (notification !== null) {
    const title = notification.requestTitle ?? texts.untitled
    words = texts.notifications[notification.type]({ title, data: notification.data, when: whenText(notification.data.window_start, delivery.locale, delivery.timeZone) })
    // An invitation to an account is answered on "People I help", where it waits with what it allows.
    action = notification.requestId !== null
      ? { label: texts.openRequest, url: `${base}/requests/${notification.requestId}` }
      : notification.type === 'trust_invitation'
        ? { label: texts.openInvitation, url: `${base}/people-i-help` }
        : { label: texts.openNotifications, url: `${base}/notifications` }
    const token = links.unsubscribe.sign({ userId: delivery.userId, type: notification.type })
    footer = {
      text: texts.footer(texts.typeNames[notification.type]),
      links: [{ label: texts.settingsLink, url: `${base}/settings/notifications` }, { label: texts.unsubscribeLink, url: `${base}/unsubscribe#token=${token}` }],
    }
    headers['List-Unsubscribe'] = `<${base}/api/v1/unsubscribe?token=${token}>`
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
  } else if (account !== null && isEmailAccountMessage(account.message)) {
    const code = account.code ?? ''
    words = texts.account[account.message]({ code })
    const email = encodeURIComponent(delivery.email)
    switch (account.message) {
      case 'sign_in_code': action = { label: texts.useCode, url: `${base}/sign-in/code#email=${email}&code=${code}` }; break
      case 'password_reset_code': action = { label: texts.useCode, url: `${base}/forgot-password/code#email=${email}&code=${code}` }; break
      case 'verify_email_code': action = { label: texts.useCode, url: `${base}/verify-email#code=${code}` }; break
      case 'password_changed': action = { label: texts.resetPassword, url: `${base}/forgot-password` }; break
      case 'email_verified': action = undefined; break
    }
    footer = { text: texts.accountFooter, links: [] }
  } else if (invitation !== null) {
    // To an address without an account: the invitation's page leads through registering (or signing in) to the answer.
    words = texts.invitation({ inviterName: invitation.inviterName, can: invitation.can, host: new URL(base).host })
    action = { label: texts.openInvitation, url: `${base}/invitation` }
    footer = { text: texts.invitationFooter, links: [] }
  } else {
    throw new Error(`delivery ${delivery.id} is neither a notification, an account message nor an invitation`)
  }
  const text = [
    ...words.paragraphs,
    ...(action !== undefined ? [`${action.label}: ${action.url}`] : []),
    '-- ',
    footer.text,
    ...footer.links.map((link) => `${link.label}: ${link.url}`),
  ].join('\n\n') + '\n'
  const html = [
    '<!doctype html>',
    `<html lang="${delivery.locale}"><head><meta charset="utf-8"><title>${escapeHtml(words.subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; max-width: 40em">',
    ...words.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(action !== undefined ? [`<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`] : []),
    '<hr>',
    `<p style="font-size: 0.9em">${escapeHtml(footer.text)}</p>`,
    ...footer.links.map((link) => `<p style="font-size: 0.9em"><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`),
    '</body></html>',
  ].join('\n')
  return { subject: words.subject, text, html, headers }
}
