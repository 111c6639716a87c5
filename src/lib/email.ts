/** E-mail is stored and compared trimmed and in lower case (rules.md › Accounts and tokens). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase()
