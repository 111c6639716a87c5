import { join } from 'node:path'
import type { Config } from '../../config.js'
import { FileSmsGateway } from './file-gateway.js'
import type { SmsGateway } from './gateway.js'
import { SmppGateway, type GatewayLog } from './smpp-gateway.js'

/** The gateway from the settings (docs/api/messaging.md › Texts): SMPP with SMS_SMPP_URL, else files in SMS_DIR (DATA_DIR/sms). */
export function smsGatewayFor (config: Config, log: GatewayLog): SmsGateway {
  if (config.smsSmppUrl !== undefined) {
    // config.ts refuses SMS_SMPP_URL without SMS_FROM.
    return new SmppGateway({ url: config.smsSmppUrl, from: config.smsFrom ?? '', log })
  }
  return new FileSmsGateway(config.smsDir ?? join(config.dataDir, 'sms'))
}

/** The service's name as its e-mails give it (MAIL_FROM's display name), which texts name where they say who sends them. */
export function serviceNameOf (config: Config): string {
  return /^\s*"?([^"<]*?)"?\s*</.exec(config.mailFrom)?.[1]?.trim() || 'Neighbourly help'
}
