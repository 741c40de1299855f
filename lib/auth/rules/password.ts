/** The shortest password Plangate accepts: better-auth's sign-in rule and the hash Plangate writes use this one. */
export const MIN_PASSWORD_LENGTH = 10;
