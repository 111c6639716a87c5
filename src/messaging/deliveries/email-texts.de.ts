import { distanceText, type Texts } from './email-texts.js'

/** What a carer may do (docs/api/on-behalf.md › Carers), as a German invitation says it. */
const DE_CAN: Record<string, string> = {
  follow: 'die Anfragen der Person und die Nachrichten dazu sehen',
  create: 'für die Person um Hilfe bitten',
  accept: 'für die Person ein Hilfsangebot annehmen',
  cancel: 'für die Person eine Anfrage absagen',
  complete: 'für die Person Hilfe als erledigt melden',
}

/** Die E-Mails auf Deutsch (docs/api/messaging.md › Deliveries and e-mail: `locale` der Empfängerin oder des Empfängers). */
export const DE: Texts = {
  untitled: 'Ihre Anfrage',
  notifications: {
    request_alert: ({ title, data }) => {
      const distance = distanceText(data.distance_meters, true)
      return {
        subject: `Hilfe in der Nähe gesucht: ${title}`,
        paragraphs: [`Jemand ${distance !== undefined ? `etwa ${distance} von Ihnen entfernt ` : 'in Ihrer Nähe '}bittet um Hilfe: „${title}“.`, 'Wenn Sie helfen können, öffnen Sie die Anfrage und bieten Sie Ihre Hilfe an.'],
      }
    },
    request_alert_closed: ({ title }) => ({ subject: `Nicht mehr nötig: ${title}`, paragraphs: [`Für die Anfrage „${title}“ wird keine Hilfe mehr gesucht. Danke, dass Sie bereit waren.`] }),
    request_approved: ({ title }) => ({ subject: `Ihre Anfrage ist veröffentlicht: ${title}`, paragraphs: [`Ihre Anfrage „${title}“ wurde freigegeben. Helferinnen und Helfer in der Nähe sehen sie jetzt und können Hilfe anbieten.`] }),
    request_rejected: ({ title, data }) => ({
      subject: `Ihre Anfrage wurde nicht freigegeben: ${title}`,
      paragraphs: [`Ihre Anfrage „${title}“ wurde nicht freigegeben.`, ...(typeof data.comment === 'string' && data.comment !== '' ? [`Begründung: ${data.comment}`] : [])],
    }),
    response_received: ({ title, data }) => ({
      subject: `Ein Hilfsangebot: ${title}`,
      paragraphs: [`${typeof data.volunteer_name === 'string' ? data.volunteer_name : 'Jemand'} bietet Hilfe bei „${title}“ an.`, 'Öffnen Sie die Anfrage, um die Nachricht zu lesen und das Angebot anzunehmen.'],
    }),
    response_withdrawn: ({ title, data }) => ({
      subject: `Ein Angebot wurde zurückgezogen: ${title}`,
      paragraphs: [data.was_accepted === true
        ? `Die Person, deren Angebot Sie für „${title}“ angenommen hatten, kann nicht mehr helfen. Ihre Anfrage ist wieder offen für andere.`
        : `Ein Hilfsangebot für „${title}“ wurde zurückgezogen.`],
    }),
    response_accepted: ({ title }) => ({ subject: `Ihr Angebot wurde angenommen: ${title}`, paragraphs: [`Ihr Angebot, bei „${title}“ zu helfen, wurde angenommen. Auf der Seite der Anfrage steht jetzt, wie Sie Kontakt aufnehmen.`] }),
    response_rejected: ({ title }) => ({ subject: `Ihr Angebot wurde nicht gebraucht: ${title}`, paragraphs: [`Danke für Ihr Angebot, bei „${title}“ zu helfen. Diesmal wurde eine andere Lösung gewählt.`] }),
    request_cancelled: ({ title }) => ({ subject: `Abgesagt: ${title}`, paragraphs: [`Die Anfrage „${title}“ wurde abgesagt. Es ist nichts mehr zu tun.`] }),
    request_completed: ({ title, data }) => ({
      subject: `Erledigt: ${title}`,
      paragraphs: [`„${title}“ ist als erledigt markiert. Danke für Ihre Hilfe!`, ...(typeof data.rating === 'number' ? [`Ihre Bewertung: ${data.rating} von 5.`] : [])],
    }),
    check_expiring: () => ({ subject: 'Einer Ihrer Nachweise läuft bald ab', paragraphs: ['Ein für Sie eingetragener Nachweis läuft bald ab. Danach können Sie Hilfe, die ihn verlangt, vielleicht nicht mehr anbieten.'] }),
    concern_raised: ({ data }) => ({ subject: data.urgent === true ? 'Eine dringende Meldung ist eingegangen' : 'Eine Meldung ist eingegangen', paragraphs: ['Jemand hat eine Meldung eingereicht, die Sie prüfen können. Öffnen Sie die App, um sie zu sehen.'] }),
    concern_resolved: () => ({ subject: 'Ihre Meldung wurde bearbeitet', paragraphs: ['Ihre Meldung wurde bearbeitet. Danke, dass Sie uns Bescheid gegeben haben.'] }),
    series_invitation: ({ title, when }) => ({
      subject: `Sie haben letztes Mal geholfen: ${title}`,
      paragraphs: [`Sie haben letztes Mal bei „${title}“ geholfen und eine gute Bewertung bekommen. Die Hilfe wird wieder gebraucht${when !== undefined ? ` am ${when}` : ''}, und Sie werden zuerst gefragt.`, 'Öffnen Sie die Anfrage, um Hilfe anzubieten oder abzusagen.'],
    }),
    confirm_needed: ({ title, when }) => ({
      subject: `Bitte bestätigen: ${title}`,
      paragraphs: [`Sie helfen bei „${title}“${when !== undefined ? ` am ${when}` : ''}.`, 'Bitte bestätigen Sie, dass Sie kommen. Wenn Sie nicht können, ziehen Sie jetzt zurück, damit jemand anderes helfen kann.'],
    }),
    volunteer_confirmed: ({ title, when }) => ({ subject: `Ihre Hilfe kommt: ${title}`, paragraphs: [`Ihre Helferin oder Ihr Helfer hat bestätigt, bei „${title}“${when !== undefined ? ` am ${when}` : ''} zu kommen.`] }),
    confirmation_missed: ({ title, when }) => ({
      subject: `Nicht rechtzeitig bestätigt: ${title}`,
      paragraphs: [`Die Hilfe bei „${title}“${when !== undefined ? ` am ${when}` : ''} wurde nicht rechtzeitig bestätigt. Die Anfrage ist wieder offen, und Freiwillige in der Nähe werden dringend gefragt.`],
    }),
    reminder: ({ title, when }) => ({ subject: `Erinnerung: ${title}`, paragraphs: [`Zur Erinnerung: „${title}“ ist${when !== undefined ? ` am ${when}` : ' bald'}.`] }),
    request_expired: ({ title }) => ({
      subject: `Niemand konnte rechtzeitig helfen: ${title}`,
      paragraphs: [`Es tut uns leid: Bei „${title}“ konnte niemand rechtzeitig helfen, deshalb wurde die Anfrage geschlossen.`, 'Auf der Seite der Anfrage können Sie mit einem Klick erneut fragen.'],
    }),
    still_needed: ({ title }) => ({
      subject: `Wird das noch gebraucht? ${title}`,
      paragraphs: [`Ihre Anfrage „${title}“ ist schon eine Weile offen. Brauchen Sie noch Hilfe?`, 'Öffnen Sie die Anfrage und drücken Sie „Noch nötig“, um sie zu behalten; ohne Antwort wird sie in 3 Tagen geschlossen.'],
    }),
    please_complete: ({ title }) => ({ subject: `Ist es erledigt? ${title}`, paragraphs: [`Ist „${title}“ erledigt? Bitte markieren Sie die Anfrage als erledigt und bewerten Sie die Hilfe, wenn Sie möchten.`] }),
    trust_invitation: ({ data }) => ({
      subject: `${typeof data.from_name === 'string' ? data.from_name : 'Jemand'} bittet Sie um Ihre Hilfe bei den eigenen Anfragen`,
      paragraphs: [`${typeof data.from_name === 'string' ? data.from_name : 'Jemand'} möchte, dass Sie bei den eigenen Anfragen um Hilfe helfen.`, 'Öffnen Sie die Einladung, um zu sehen, worum es geht, und nehmen Sie sie an oder lehnen Sie sie ab.'],
    }),
    request_created_for_you: ({ title, data }) => ({
      subject: `Eine Anfrage wurde für Sie gestellt: ${title}`,
      paragraphs: [`${typeof data.by_name === 'string' ? data.by_name : 'Eine Vertrauensperson'} hat für Sie um Hilfe gebeten: „${title}“.`, 'Auf der Seite der Anfrage sehen Sie sie und alles, was für Sie getan wurde.'],
    }),
    visit_not_started: ({ title, data }) => {
      const name = typeof data.volunteer_name === 'string' ? data.volunteer_name : 'Ihre Hilfe'
      return {
        subject: `Ist ${name} angekommen? ${title}`,
        paragraphs: [`${name} hat noch nicht gemeldet, bei „${title}“ angekommen zu sein.`, `Wenn ${name} bei Ihnen ist, ist alles in Ordnung. Wenn nicht, öffnen Sie die Anfrage, um Kontakt aufzunehmen oder es zu sagen.`],
      }
    },
    visit_overdue: ({ title }) => ({
      subject: `Ist alles in Ordnung? ${title}`,
      paragraphs: [`Sie haben sich vor einer Weile bei „${title}“ angemeldet. Ist alles in Ordnung? Bitte melden Sie sich ab, wenn Sie gegangen sind.`, 'Sonst wird eine Moderatorin oder ein Moderator gebeten, Kontakt mit Ihnen aufzunehmen.'],
    }),
    client_says_not_needed: ({ title }) => ({
      subject: `Ihre Klientin oder Ihr Klient braucht es nicht mehr: ${title}`,
      paragraphs: [`Auf eine SMS zu „${title}“ kam die Antwort NEIN: Die Hilfe wird vielleicht nicht mehr gebraucht.`, 'Es wurde nichts abgesagt. Bitte rufen Sie an, um nachzufragen, und sagen Sie die Anfrage gegebenenfalls ab.'],
    }),
  },
  account: {
    sign_in_code: ({ code }) => ({
      subject: 'Ihr Anmeldecode',
      paragraphs: [`Ihr Code zum Anmelden lautet ${code}. Er gilt 30 Minuten und nur einmal.`, 'Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren: Ohne den Code kann sich niemand anmelden.'],
    }),
    password_reset_code: ({ code }) => ({
      subject: 'Passwort zurücksetzen',
      paragraphs: [`Ihr Code für ein neues Passwort lautet ${code}. Er gilt 30 Minuten und nur einmal.`, 'Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt, wie es ist.'],
    }),
    verify_email_code: ({ code }) => ({
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
      paragraphs: [`Ihr Code zum Bestätigen dieser Adresse lautet ${code}. Er gilt 30 Minuten und nur einmal.`, 'Wenn Sie kein Konto angelegt haben, können Sie diese E-Mail ignorieren.'],
    }),
    email_verified: () => ({ subject: 'Ihre E-Mail-Adresse ist bestätigt', paragraphs: ['Danke: Diese Adresse ist jetzt für Ihr Konto bestätigt.'] }),
    password_changed: () => ({
      subject: 'Ihr Passwort wurde geändert',
      paragraphs: ['Das Passwort Ihres Kontos wurde soeben geändert, und alle anderen Geräte wurden abgemeldet.', 'Wenn Sie das nicht waren, wählen Sie sofort über den Link unten ein neues Passwort und benachrichtigen Sie die Betreiber dieses Dienstes.'],
    }),
  },
  invitation: ({ inviterName, can, host }) => ({
    subject: `${inviterName} bittet Sie um Ihre Hilfe bei den eigenen Anfragen`,
    paragraphs: [
      `${inviterName} möchte, dass Sie bei den eigenen Anfragen um Hilfe auf ${host} helfen, wo Menschen in der Nachbarschaft einander helfen. ${inviterName} möchte, dass Sie Folgendes dürfen:`,
      ...can.map((item) => `• ${DE_CAN[item] ?? item}`),
      'Um zu antworten, öffnen Sie die Einladung unten und legen Sie ein Konto mit dieser E-Mail-Adresse an (oder melden Sie sich an, wenn Sie schon eines haben). Dann sehen Sie die Einladung und können sie annehmen oder ablehnen. Bevor Sie annehmen, wird nichts mit Ihnen geteilt.',
    ],
  }),
  openInvitation: 'Einladung öffnen',
  invitationFooter: 'Sie erhalten diese E-Mail, weil jemand Ihre Adresse angegeben hat, um Sie einzuladen. Wenn Sie die Person nicht kennen, können Sie die E-Mail einfach löschen: Ohne Ihre Zustimmung geschieht nichts, und wir schreiben Ihnen deswegen nicht noch einmal.',
  typeNames: {
    request_alert: 'Anfragen in Ihrer Nähe',
    request_alert_closed: 'Anfragen, die Sie nicht mehr brauchen',
    request_approved: 'freigegebene Anfragen',
    request_rejected: 'nicht freigegebene Anfragen',
    response_received: 'Hilfsangebote',
    response_withdrawn: 'zurückgezogene Angebote',
    response_accepted: 'angenommene Angebote',
    response_rejected: 'nicht gebrauchte Angebote',
    request_cancelled: 'abgesagte Anfragen',
    request_completed: 'erledigte Anfragen',
    check_expiring: 'ablaufende Nachweise',
    concern_raised: 'eingegangene Meldungen',
    concern_resolved: 'bearbeitete Meldungen',
    series_invitation: 'Einladungen, wieder zu helfen',
    confirm_needed: 'Bitten um Bestätigung',
    volunteer_confirmed: 'bestätigte Hilfe',
    confirmation_missed: 'nicht rechtzeitig bestätigte Hilfe',
    reminder: 'Erinnerungen',
    request_expired: 'Anfragen, bei denen niemand rechtzeitig helfen konnte',
    still_needed: 'Fragen „Noch nötig?“',
    please_complete: 'Bitten, Anfragen als erledigt zu markieren',
    trust_invitation: 'Einladungen, jemandem zu helfen',
    request_created_for_you: 'für Sie gestellte Anfragen',
    visit_not_started: 'Besuche, die nicht begonnen haben',
    visit_overdue: 'nicht abgemeldete Besuche',
    client_says_not_needed: 'Klientinnen und Klienten, die keine Hilfe mehr brauchen',
  },
  openRequest: 'Anfrage öffnen',
  openNotifications: 'Benachrichtigungen öffnen',
  useCode: 'Code verwenden',
  resetPassword: 'Neues Passwort wählen',
  footer: (typeName) => `Sie erhalten diese E-Mail, weil E-Mails über ${typeName} in Ihren Benachrichtigungseinstellungen eingeschaltet sind.`,
  settingsLink: 'Benachrichtigungseinstellungen ändern',
  unsubscribeLink: 'Diese E-Mails abbestellen',
  accountFooter: 'Diese Nachricht betrifft Ihr Konto. Sie wird immer gesendet und lässt sich nicht abschalten.',
}
