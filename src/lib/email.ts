/** E-mail is stored and compared trimmed and in lower case (docs/api/accounts.md › Tokens). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase()
