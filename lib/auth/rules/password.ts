/** The shortest password Plangate accepts, in its own forms and in better-auth's routes alike. */
export const MIN_PASSWORD_LENGTH = 10;
/** The longest: better-auth's sign-in refuses a longer one, so a longer one set here would lock its person out. */
export const MAX_PASSWORD_LENGTH = 128;
