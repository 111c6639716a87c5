/**
 * A last name as strangers see it under ADDRESS_PRIVACY=parties (docs/privacy.md › `ADDRESS_PRIVACY=parties`): its first letter and a full
 * stop, "Schmidt" → "S.". By code point, so a name starting with a character outside the BMP keeps it whole.
 */
export const initialOf = (lastName: string): string => `${[...lastName][0] ?? ''}.`
