import type { EmailAccountMessage, NotificationType } from '../../events/notifications.js'

/**
 * The words of one e-mail, as plain text: email-templates.ts makes both the text and the HTML part from
 * them, escaping everything for HTML, so no value (a title, a comment) can inject markup.
 */
export interface MessageText { subject: string, paragraphs: string[] }

/** What a notification's text may use: the request's title (or a stand-in) and the notification's data. */
export interface NotificationValues {
  title: string
  data: Record<string, unknown>
  /** `data.window_start` in words, in the recipient's language and zone (docs/web/schedule.md); undefined when none. */
  when: string | undefined
}

/** What an account message may use: the code, when it carries one. */
export interface AccountValues { code: string }

/** What an invitation to an address without an account uses (docs/api.md › Carers): who asks, what they allow, the app's host. */
export interface InvitationValues { inviterName: string, can: readonly string[], host: string }

/** One language's texts (email-texts.en.ts, email-texts.de.ts). */
export interface Texts {
  /** Stands in for a title when a notification names no request, or the request's title is gone. */
  untitled: string
  notifications: { [K in NotificationType]: (values: NotificationValues) => MessageText }
  account: { [K in EmailAccountMessage]: (values: AccountValues) => MessageText }
  /** Inviting an address without an account to help the inviter, in the inviter's language. */
  invitation: (values: InvitationValues) => MessageText
  /** The link to answer an invitation (after registering or signing in). */
  openInvitation: string
  /** Footer of an invitation to an address: why it came, and that nothing happens unless it is accepted. */
  invitationFooter: string
  /** The label of each type in the footer ("e-mails about …"). */
  typeNames: { [K in NotificationType]: string }
  /** The button or link under the text. */
  openRequest: string
  openNotifications: string
  useCode: string
  resetPassword: string
  /** Footer of a notification's e-mail: why it came and how to stop it. */
  footer: (typeName: string) => string
  settingsLink: string
  unsubscribeLink: string
  /** Footer of an account e-mail, which cannot be switched off. */
  accountFooter: string
}

/** A distance in metres as people say it: "300 m", "1.2 km". */
export function distanceText (meters: unknown, decimalComma: boolean): string | undefined {
  if (typeof meters !== 'number' || !Number.isFinite(meters)) return undefined
  if (meters < 1000) return `${Math.round(meters)} m`
  const km = (Math.round(meters / 100) / 10).toFixed(1)
  return `${decimalComma ? km.replace('.', ',') : km} km`
}
