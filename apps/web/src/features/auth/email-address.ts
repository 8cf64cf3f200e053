/**
 * The e-mail addresses zod's `.email()` accepts, as its own pattern (a test keeps them the same):
 * the sign-in page checks an address without loading zod.
 */
// eslint-disable-next-line no-useless-escape -- zod's pattern, character for character
export const EMAIL_ADDRESS = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
