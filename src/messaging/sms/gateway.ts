/**
 * The way texts leave and arrive (docs/api/messaging.md › Texts): an SMPP 3.4 gateway (`smpp-gateway.ts`, one
 * transceiver bind per instance) or, without SMS_SMPP_URL, files in SMS_DIR (`file-gateway.ts`). The outbox's
 * sms channel submits through it outside any transaction; receipts and incoming texts come back through the
 * handlers the service sets, which must be safe to call twice for the same message (a gateway may repeat one).
 */

/** What became of one submission: as `SendOutcome` of the outbox, with the gateway's message id when accepted. */
export type SubmitOutcome =
  | { outcome: 'sent', messageId: string }
  | { outcome: 'retry', reason: string }
  | { outcome: 'gone', reason: string }

export interface OutgoingText {
  /** E.164, such as +4915112345678. */
  to: string
  text: string
}

/** A delivery receipt: the gateway's final word on a submitted text. */
export interface Receipt {
  /** The id `submit` resolved with. */
  messageId: string
  /** The receipt's `stat` as given: DELIVRD, UNDELIV, EXPIRED, REJECTD, … */
  stat: string
  delivered: boolean
}

/** A text a person sent to the service. */
export interface IncomingText {
  /** The sender as the gateway gave it, normalised to E.164 when it parses. */
  from: string
  text: string
  /** Identifies this message at the gateway, so a repeat of it is recognised and acted on once. */
  gatewayId: string
  receivedAt: Date
}

export interface SmsHandlers {
  receipt (receipt: Receipt): Promise<void>
  incoming (text: IncomingText): Promise<void>
}

export interface SmsGateway {
  /**
   * Resolves once the first bind has been tried, bound or not (at once for files): a text claimed as the process
   * starts waits for it, rather than for the minute of a retry.
   */
  readonly started: Promise<void>
  /** Never throws: a gateway that is down, slow or refusing resolves with `retry` (or `gone` for a number it will never take). */
  submit (text: OutgoingText): Promise<SubmitOutcome>
  /** Starts handing receipts and incoming texts to these handlers; a handler that throws gets the message again later. */
  listen (handlers: SmsHandlers): void
  close (): Promise<void>
}
