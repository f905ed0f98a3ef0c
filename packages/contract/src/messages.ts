/** Every message a user can read, in one place: the server sends them, the web app shows them. */
export const MESSAGES = {
  // Client-side (spec §8)
  invalidResponse: 'Invalid response from server',
  unknownApiError: 'Unknown error from API',
  anErrorOccurred: 'An error occurred',
  loginNetworkError: 'Invalid credentials or somthing went wrong!',
  accessDenied: 'Access Denied!',
  requestTimedOut: 'The server took too long to answer',

  // Auth
  invalidCredentials: 'Invalid email or password',
  accountNotActive: 'This account is not active',
  notSignedIn: 'Please sign in',
  sessionExpired: 'Your session has expired, please sign in again',
  tooManyAttempts: 'Too many failed sign-in attempts, please try again later',
  loggedOut: 'Logged out successfully',
  passwordReset: 'Password reset successfully',
  oldPasswordMismatch: 'old password not matched!!',

  // Generic
  statusUpdated: 'Status Updated Successfully',
  successfullyUpdated: 'Successfully Updated.',
  validationFailed: 'Some fields are not valid',
  notFound: 'Not found',
  tooLarge: 'The request is too large',
  unsupportedMediaType: 'This content type is not accepted',
  tooManyRequests: 'Too many requests, please slow down',
  internalError: 'Something went wrong on the server',
  serviceUnavailable: 'The server is shutting down, please retry',

  // Master apps
  appCreated: 'App Created Successfully',
  appNameTaken: 'A master app with this name already exists',
  appNotFound: 'Master app not found',
} as const;
