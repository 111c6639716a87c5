import { distanceText, type Texts } from './email-texts.js'

/** What a carer may do (docs/api/on-behalf.md › Carers), as an invitation says it. */
const EN_CAN: Record<string, string> = {
  follow: 'see their requests and the messages about them',
  create: 'ask for help for them',
  accept: 'accept an offer of help for them',
  cancel: 'cancel a request for them',
  complete: 'mark help as done for them',
}

/** The e-mails in English (docs/api/messaging.md › Deliveries and e-mail: the recipient's `locale`). */
export const EN: Texts = {
  untitled: 'your request',
  notifications: {
    request_alert: ({ title, data }) => {
      const distance = distanceText(data.distance_meters, false)
      return {
        subject: `Help needed nearby: ${title}`,
        paragraphs: [`Someone ${distance !== undefined ? `about ${distance} from you ` : 'near you '}has asked for help: “${title}”.`, 'If you can help, open the request and offer to.'],
      }
    },
    request_alert_closed: ({ title }) => ({ subject: `No longer needed: ${title}`, paragraphs: [`The request “${title}” you were told about no longer needs a volunteer. Thank you for being there.`] }),
    request_approved: ({ title }) => ({ subject: `Your request is published: ${title}`, paragraphs: [`A moderator approved your request “${title}”. Volunteers nearby can now see it and offer to help.`] }),
    request_rejected: ({ title, data }) => ({
      subject: `Your request was not approved: ${title}`,
      paragraphs: [`A moderator did not approve your request “${title}”.`, ...(typeof data.comment === 'string' && data.comment !== '' ? [`Their comment: ${data.comment}`] : [])],
    }),
    response_received: ({ title, data }) => ({
      subject: `An offer of help: ${title}`,
      paragraphs: [`${typeof data.volunteer_name === 'string' ? data.volunteer_name : 'A volunteer'} has offered to help with “${title}”.`, 'Open the request to read their message and accept the offer.'],
    }),
    response_withdrawn: ({ title, data }) => ({
      subject: `An offer was withdrawn: ${title}`,
      paragraphs: [data.was_accepted === true
        ? `The volunteer you accepted for “${title}” can no longer help. Your request is open again, so other volunteers can offer to help.`
        : `A volunteer has withdrawn their offer to help with “${title}”.`],
    }),
    response_accepted: ({ title }) => ({ subject: `Your offer was accepted: ${title}`, paragraphs: [`Your offer to help with “${title}” was accepted. The request's page now shows how to get in touch.`] }),
    response_rejected: ({ title }) => ({ subject: `Your offer was not taken up: ${title}`, paragraphs: [`Thank you for offering to help with “${title}”. This time the requester chose another way.`] }),
    request_cancelled: ({ title }) => ({ subject: `Cancelled: ${title}`, paragraphs: [`The request “${title}” was cancelled. Nothing more needs to be done.`] }),
    request_completed: ({ title, data }) => ({
      subject: `Done: ${title}`,
      paragraphs: [`“${title}” is marked as done. Thank you for helping!`, ...(typeof data.rating === 'number' ? [`You were rated ${data.rating} out of 5.`] : [])],
    }),
    check_expiring: () => ({ subject: 'One of your checks expires soon', paragraphs: ['A check recorded for you expires soon. Once it has, you may no longer be able to offer help that needs it.'] }),
    concern_raised: ({ data }) => ({ subject: data.urgent === true ? 'An urgent concern was raised' : 'A concern was raised', paragraphs: ['Someone raised a concern that you may review. Open the app to see it.'] }),
    concern_resolved: () => ({ subject: 'Your concern was dealt with', paragraphs: ['A moderator has dealt with the concern you raised. Thank you for telling us.'] }),
    series_invitation: ({ title, when }) => ({
      subject: `You helped last time: ${title}`,
      paragraphs: [`You helped with “${title}” last time and were rated well. It is needed again${when !== undefined ? ` on ${when}` : ''}, and you are asked first.`, 'Open the request to offer your help, or to say you cannot this time.'],
    }),
    confirm_needed: ({ title, when }) => ({
      subject: `Please confirm: ${title}`,
      paragraphs: [`You are helping with “${title}”${when !== undefined ? ` on ${when}` : ''}.`, 'Please confirm that you will be there. If you cannot, withdraw now so someone else can help.'],
    }),
    volunteer_confirmed: ({ title, when }) => ({ subject: `Your volunteer is coming: ${title}`, paragraphs: [`Your volunteer confirmed that they will help with “${title}”${when !== undefined ? ` on ${when}` : ''}.`] }),
    confirmation_missed: ({ title, when }) => ({
      subject: `Not confirmed in time: ${title}`,
      paragraphs: [`The help with “${title}”${when !== undefined ? ` on ${when}` : ''} was not confirmed in time, so the request is open again and volunteers nearby are being asked urgently.`],
    }),
    reminder: ({ title, when }) => ({ subject: `Reminder: ${title}`, paragraphs: [`A reminder: “${title}” is${when !== undefined ? ` on ${when}` : ' soon'}.`] }),
    request_expired: ({ title }) => ({
      subject: `Nobody could help in time: ${title}`,
      paragraphs: [`We are sorry: nobody could help with “${title}” in time, so it was closed.`, 'You can ask again with one press on the request\'s page.'],
    }),
    still_needed: ({ title }) => ({
      subject: `Is this still needed? ${title}`,
      paragraphs: [`Your request “${title}” has been open for a while. Do you still need help?`, 'Open the request and press “Still needed” to keep it; without an answer it is closed in 3 days.'],
    }),
    please_complete: ({ title }) => ({ subject: `Was it done? ${title}`, paragraphs: [`Was “${title}” done? Please mark it as done on the request's page, and rate the help if you like.`] }),
    trust_invitation: ({ data }) => ({
      subject: `${typeof data.from_name === 'string' ? data.from_name : 'Someone'} asks you to help them with their requests`,
      paragraphs: [`${typeof data.from_name === 'string' ? data.from_name : 'Someone'} would like you to help them with their requests for help.`, 'Open the invitation to see what they ask, and accept or decline it.'],
    }),
    request_created_for_you: ({ title, data }) => ({
      subject: `A request was made for you: ${title}`,
      paragraphs: [`${typeof data.by_name === 'string' ? data.by_name : 'Someone you trust'} asked for help for you: “${title}”.`, 'You can see it, and everything done for you, on the request\'s page.'],
    }),
    visit_not_started: ({ title, data }) => {
      const name = typeof data.volunteer_name === 'string' ? data.volunteer_name : 'your helper'
      return {
        subject: `Has ${name} arrived? ${title}`,
        paragraphs: [`${name} has not said yet that they have arrived for “${title}”.`, 'If they are with you, all is well. If not, open the request to get in touch, or to say so.'],
      }
    },
    visit_overdue: ({ title }) => ({
      subject: `Are you all right? ${title}`,
      paragraphs: [`You checked in for “${title}” a while ago. Are you all right? Check out when you have left.`, 'If you do not, a moderator will be asked to get in touch with you.'],
    }),
    client_says_not_needed: ({ title }) => ({
      subject: `Your client says it is no longer needed: ${title}`,
      paragraphs: [`Your client replied NO to a text about “${title}”: it may no longer be needed.`, 'Nothing has been cancelled. Please call your client to check, and cancel the request if so.'],
    }),
  },
  account: {
    sign_in_code: ({ code }) => ({
      subject: 'Your sign-in code',
      paragraphs: [`Your code to sign in is ${code}. It is valid for 30 minutes and works once.`, 'If you did not ask for it, you can ignore this e-mail: nobody can sign in without the code.'],
    }),
    password_reset_code: ({ code }) => ({
      subject: 'Reset your password',
      paragraphs: [`Your code to choose a new password is ${code}. It is valid for 30 minutes and works once.`, 'If you did not ask for it, you can ignore this e-mail: your password stays as it is.'],
    }),
    verify_email_code: ({ code }) => ({
      subject: 'Confirm your e-mail address',
      paragraphs: [`Your code to confirm this address is ${code}. It is valid for 30 minutes and works once.`, 'If you did not create an account, you can ignore this e-mail.'],
    }),
    email_verified: () => ({ subject: 'Your e-mail address is confirmed', paragraphs: ['Thank you: this address is now confirmed for your account.'] }),
    password_changed: () => ({
      subject: 'Your password was changed',
      paragraphs: ['The password of your account was just changed, and every other device was signed out.', 'If it was not you, choose a new password at once with the link below, and tell the people who run this service.'],
    }),
  },
  invitation: ({ inviterName, can, host }) => ({
    subject: `${inviterName} asks you to help them with their requests for help`,
    paragraphs: [
      `${inviterName} would like you to help them with their requests for help on ${host}, where neighbours help each other. ${inviterName} asks that you may:`,
      ...can.map((item) => `• ${EN_CAN[item] ?? item}`),
      'To answer, open the invitation below and create an account with this e-mail address (or sign in, if you already have one). You then see the invitation and can accept or decline it. Nothing is shared with you before you accept.',
    ],
  }),
  openInvitation: 'Open the invitation',
  invitationFooter: 'You received this e-mail because someone entered your address to invite you. If you do not know them, you can ignore it: nothing happens unless you accept, and we will not write again about it.',
  typeNames: {
    request_alert: 'requests near you',
    request_alert_closed: 'requests that no longer need you',
    request_approved: 'approved requests',
    request_rejected: 'requests not approved',
    response_received: 'offers of help',
    response_withdrawn: 'withdrawn offers',
    response_accepted: 'accepted offers',
    response_rejected: 'offers not taken up',
    request_cancelled: 'cancelled requests',
    request_completed: 'completed requests',
    check_expiring: 'expiring checks',
    concern_raised: 'concerns raised',
    concern_resolved: 'concerns dealt with',
    series_invitation: 'invitations to help again',
    confirm_needed: 'confirmations asked of you',
    volunteer_confirmed: 'confirmed help',
    confirmation_missed: 'help not confirmed in time',
    reminder: 'reminders',
    request_expired: 'requests nobody could help with in time',
    still_needed: '"still needed?" questions',
    please_complete: 'requests to mark as done',
    trust_invitation: 'invitations to help someone',
    request_created_for_you: 'requests made for you',
    visit_not_started: 'visits that have not started',
    visit_overdue: 'visits not checked out',
    client_says_not_needed: 'clients saying help is no longer needed',
  },
  openRequest: 'Open the request',
  openNotifications: 'Open your notifications',
  useCode: 'Use the code',
  resetPassword: 'Choose a new password',
  footer: (typeName) => `You received this e-mail because e-mails about ${typeName} are switched on in your notification settings.`,
  settingsLink: 'Change your notification settings',
  unsubscribeLink: 'Stop these e-mails',
  accountFooter: 'This message is about your account. It is always sent and cannot be switched off.',
}
