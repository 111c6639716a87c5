/** The part of the `smpp` package (0.5.x, no published types) that the SMS gateway and its test server use. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events'
  import type { Server as NetServer, Socket } from 'node:net'

  export interface ShortMessage { udh?: Buffer[], message: string | Buffer }

  export interface PDU {
    command: string
    command_status: number
    sequence_number: number
    [field: string]: unknown
    response (options?: Record<string, unknown>): PDU
    isResponse (): boolean
  }

  export interface Session extends EventEmitter {
    socket: Socket
    send (pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean
    close (callback?: () => void): void
    destroy (callback?: () => void): void
    pause (): void
    resume (): void
    bind_transceiver (options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean
    submit_sm (options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean
    deliver_sm (options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean
    enquire_link (options?: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean
    unbind (options?: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean
  }

  export interface Server extends NetServer {
    sessions: Session[]
  }

  export function connect (options: { url: string, auto_enquire_link_period?: number, connectTimeout?: number, rejectUnauthorized?: boolean }, listener?: () => void): Session
  export function createServer (options: Record<string, unknown>, listener: (session: Session) => void): Server
  export const encodings: Record<'ASCII' | 'UCS2', { encode (value: string): Buffer, decode (value: Buffer): string }>
  export const ESME_ROK: number
  export const ESME_RINVPASWD: number
  export const ESME_RBINDFAIL: number
  export const ESME_RINVDSTADR: number
  export const ESME_RTHROTTLED: number
  export const ESME_RMSGQFUL: number
  export const ESME_RSYSERR: number
  export const ESME_RX_T_APPN: number
  const smpp: {
    connect: typeof connect
    createServer: typeof createServer
    encodings: typeof encodings
  } & Record<string, number>
  export default smpp
}
