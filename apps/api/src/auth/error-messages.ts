/**
 * better-auth's error codes turned into sentences a person can act on. Codes stay as they are
 * (the web app and API clients switch on them); only the message changes.
 */
export const AUTH_ERROR_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'The e-mail address or password is not right. Check both and try again.',
  // Past the per-account limit: a wrong code and a wrong password get one answer (ADR 021).
  INVALID_PASSWORD_OR_CODE: 'The password or the code is not right, or the code has expired. Check both, or ask for a new code.',
  EMAIL_NOT_VERIFIED: 'Confirm your e-mail address first: enter the 6-digit code we sent you, or ask for a new one.',
  INVALID_OTP: 'That code is not right. Check the newest e-mail from Tay and enter its 6 digits.',
  OTP_EXPIRED: 'That code has expired. Ask for a new one; codes work for 10 minutes.',
  TOO_MANY_ATTEMPTS: 'That code was entered wrongly too many times and no longer works. Ask for a new one.',
  PASSWORD_TOO_SHORT: 'Use at least 8 characters.',
  PASSWORD_TOO_LONG: 'Use at most 128 characters.',
  INVALID_PASSWORD: 'Your current password is not right.',
  INVALID_EMAIL: 'Enter a valid e-mail address, like name@example.com.',
  USER_NOT_FOUND: 'The e-mail address or password is not right. Check both and try again.',
  VALIDATION_ERROR: 'Some of the details are missing or not valid.',
  FAILED_TO_CREATE_USER: 'We could not create your account. Please try again.',
  USER_ALREADY_EXISTS: 'An account with this e-mail address already exists. Sign in instead.',
  // The second factor (ADR 052).
  INVALID_CODE: 'That code is not right. Enter the 6 digits your authenticator app shows now.',
  TOTP_CODE_USED: 'That code has been used already. Wait for your authenticator app to show the next one and enter that.',
  INVALID_BACKUP_CODE: 'That recovery code is not right, or it has been used already. Each recovery code works once.',
  INVALID_TWO_FACTOR_COOKIE: 'This sign-in has expired or is already complete. Sign in again with your password.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'Too many wrong codes for this sign-in. Sign in again with your password.',
  ACCOUNT_TEMPORARILY_LOCKED: 'Too many wrong codes. For your security, please wait 15 minutes before trying again.',
  TOTP_NOT_ENABLED: 'Two-step sign-in is not set up for this account. Set it up first.',
  TOTP_ALREADY_ENABLED: 'Two-step sign-in is already on. Turn it off first to set up another authenticator app.',
  TWO_FACTOR_NOT_ENABLED: 'Two-step sign-in is not on for this account.',
  BACKUP_CODES_NOT_ENABLED: 'Two-step sign-in is not set up for this account, so it has no recovery codes.',
};
