// No zod here: the sign-in page, in the web app's first bundle, reads these without the schemas.

/** Spec §5: the identity service refuses empty inputs with exactly these messages. */
export const IDENTITY_EMPTY_MESSAGES = {
  username: 'Username cannot be empty',
  password: 'Password cannot be empty',
  code: 'Confirmation code cannot be empty',
  challengeResponse: 'Challenge response cannot be empty',
} as const;

/** Spec §8: the identity messages, each with the sentence the person reads next to the form. */
export const IDENTITY_MESSAGES = {
  'Authentication Error': 'We could not sign you in with those details.',
  'Error creating account': 'We could not create your account.',
  'No valid MFA method provided': 'This account needs a second sign-in step that is not set up. Contact support.',
  'Invalid MFA type': 'That second sign-in step is not supported. Contact support.',
  'User is not authenticated': 'Your session has ended. Please sign in again.',
  'Network error': 'We could not reach Tay. Check your internet connection and try again.',
  'Invalid state in OAuth flow': 'The sign-in link is no longer valid. Start again from the sign-in page.',
} as const;
export type IdentityMessage = keyof typeof IDENTITY_MESSAGES;
