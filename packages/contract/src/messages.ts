/** Every message a user can read, in one place: the server sends them, the web app shows them. */
export const MESSAGES = {
  // Client-side (spec §8)
  invalidResponse: 'Invalid response from server',
  unknownApiError: 'Unknown error from API',
  anErrorOccurred: 'An error occurred',
  loginNetworkError: 'Invalid credentials or somthing went wrong!',
  accessDenied: 'Access Denied!',
  requestTimedOut: 'The server took too long to answer',
  networkError: 'The server could not be reached',

  // Auth
  invalidCredentials: 'Invalid email or password',
  accountNotActive: 'This account is not active',
  notSignedIn: 'Please sign in',
  sessionExpired: 'Your session has expired, please sign in again',
  tooManyAttempts: 'Too many failed sign-in attempts, please try again later',
  loggedOut: 'Logged out successfully',
  passwordReset: 'Password reset successfully',
  oldPasswordMismatch: 'old password not matched!!',

  // Second factors, passkeys, sessions (API.md, "Second factors, passkeys, sessions, device tokens")
  secondFactorRequired: 'A second factor is required',
  invalidCode: 'This code is not valid',
  challengeExpired: 'This sign-in has expired, please sign in again',
  totpStarted: 'Scan the code, then type the code your app shows',
  totpNotStarted: 'Start setting up the authenticator app first',
  totpAlreadyOn: 'An authenticator app is already set up',
  totpEnabled: 'Authenticator app set up',
  totpDisabled: 'Authenticator app removed',
  totpNotOn: 'No authenticator app is set up',
  passkeyAdded: 'Passkey added',
  passkeyRenamed: 'Passkey renamed',
  passkeyRemoved: 'Passkey removed',
  passkeyNotFound: 'Passkey not found',
  passkeyRefused: 'This passkey could not be verified',
  passkeyTaken: 'This passkey is already added',
  sessionEnded: 'Session ended',
  otherSessionsEnded: 'Every other session ended',
  sessionNotFound: 'Session not found',
  securityUpdated: 'Security settings updated',
  weakPassword: 'This password is too easy to guess',

  // Proof of presence (API.md, "Proof of presence for what a stolen token must not do")
  reauthRequired: 'Confirm it’s you',
  reauthDone: 'Confirmed: it’s you',
  reauthCancelled: 'Nothing was changed: this needs you to confirm it’s you',
  wrongPassword: 'This password is not right',
  noPasskey: 'This account has no passkey',
  recoveryCodesRenewed: 'New recovery codes made; the old ones no longer work',
  factorsReset: 'Second factors reset',

  // Generic
  statusUpdated: 'Status Updated Successfully',
  scheduleUpdated: 'Schedule Updated Successfully',
  successfullyUpdated: 'Successfully Updated.',
  validationFailed: 'Some fields are not valid',
  notFound: 'Not found',
  tooLarge: 'The request is too large',
  unsupportedMediaType: 'This content type is not accepted',
  tooManyRequests: 'Too many requests, please slow down',
  internalError: 'Something went wrong on the server',
  serverStopping: 'The server is restarting; connect again',
  serviceUnavailable: 'The server is shutting down, please retry',
  databaseBusy: 'The server is busy, please retry',

  // Master apps
  appCreated: 'App Created Successfully',
  appNameTaken: 'A master app with this name already exists',
  appNotFound: 'Master app not found',

  // Banners
  bannerCreated: 'Banner Created Successfully',
  bannerUpdated: 'Banner Updated Successfully',
  bannerDeleted: 'Banner deleted successfully',
  bannerNotFound: 'Banner not found',

  // Blogs
  blogCreated: 'Blog Created Successfully',
  blogUpdated: 'Blog Updated Successfully',
  blogDeleted: 'Blog deleted successfully',
  blogNotFound: 'Blog not found',
  imageUpdated: 'Image Updated Successfully',

  // Pages
  pageUpdated: 'Page Updated Successfully',
  pageNotFound: 'Page not found',

  // FAQs
  faqCreated: 'Faq Created Successfully',
  faqUpdated: 'Faq Updated Successfully',
  faqDeleted: 'Faq Deleted Successfully',
  faqNotFound: 'Faq not found',

  // Categories
  categoryCreated: 'Category Created Successfully',
  categoryUpdated: 'Category Updated Successfully',
  categoryDeleted: 'Category deleted successfully',
  categoryNotFound: 'Category not found',
  categoryNameTaken: 'A category with this name already exists',
  categoryInUse: 'This category still has posters: move or delete them first',

  // Special days
  specialDayCreated: 'Special Day Created Successfully',
  specialDayUpdated: 'Special Day Updated Successfully',
  specialDayNotFound: 'Special day not found',
  specialDayDeleted: 'Special Day deleted successfully',
  specialDayInUse: 'This special day still has posters: move or delete them first',
  yearsUpdated: 'Years Updated Successfully',

  // Posters
  posterCreatedForAll: 'Poster uploaded to all apps successfully',
  posterCreated: 'Poster Created Successfully',
  defNumsUpdated: 'Updated Successfully',
  dateUpdated: 'Date Updated Successfully',
  positionUpdated: 'Position Updated Successfully',
  posterUpdated: 'Poster Updated Successfully',
  thumbUpdated: 'Thumbnail Updated Successfully',
  posterDeleted: 'Poster deleted successfully',
  posterNotFound: 'Poster not found',
  noMasterApps: 'There is no master app yet: create one first',

  // Videos (their changes answer the posters' messages: defNumsUpdated, dateUpdated …)
  videoCreated: 'Video Created Successfully',
  videoDeleted: 'Video deleted successfully',
  videoNotFound: 'Video not found',

  // Settings
  logoCreated: 'Logo Created Successfully',
  logoUpdated: 'Logo Updated Successfully',
  settingsNotFound: 'Settings not found',
  settingsExist: 'This master app already has its settings',

  // Notifications
  notificationCreated: 'Notification Created Successfully',
  notificationDeleted: 'notification deleted successfully',
  notificationNotFound: 'Notification not found',
  userNotFound: 'User not found',

  // Users
  userCreated: 'User Created Successfully',
  userUpdated: 'User Updated Successfully',
  userDeleted: 'User deleted successfully',
  dateLimitUpdated: 'Date Limit Updated Successfully',
  topBannerUpdated: 'Top Banner Updated Successfully',
  bottomBannerUpdated: 'Bottom Banner Updated Successfully',
  phoneTaken: 'A user with this phone number already exists in this app',
  accountNotFound: 'Account not found',

  // A user's numbered images
  topImageUploaded: 'Top image uploaded successfully',
  selfImageUploaded: 'Self image uploaded successfully',
  bottomImageUploaded: 'Bottom image uploaded successfully',
  topImageUpdated: 'Top image updated successfully',
  selfImageUpdated: 'Self image updated successfully',
  bottomImageUpdated: 'Bottom image updated successfully',
  topImageDeleted: 'Top image deleted successfully',
  selfImageDeleted: 'Self image deleted successfully',
  bottomImageDeleted: 'Bottom image deleted successfully',
  selfPositionUpdated: 'Self image position updated successfully',
  defNumTaken: 'This default number already exists for this user!',
  imageNotFound: 'Image not found',
  notImageOwner: 'This image belongs to another user',
  // Staff
  staffCreated: 'Staff Created Successfully',
  staffUpdated: 'Staff Updated Successfully',
  staffLoginUpdated: 'Login Updated Successfully',
  staffDeleted: 'Staff deleted successfully',
  staffNotFound: 'Staff not found',
  emailTaken: 'An account with this email already exists',
  phoneNumberTaken: 'An account with this phone number already exists',

  // Menus and permissions
  menuCreated: 'Menu Created Successfully',
  menuUpdated: 'Menu Updated Successfully',
  menuDeleted: 'Menu deleted successfully',
  menuNotFound: 'Menu not found',
  menuNameTaken: 'A menu with this name already exists',
  menuBuiltIn: 'Built-in menus cannot be deleted',
  menuBuiltInName: 'A built-in menu keeps its name: change its title instead',
  permissionNotFound: 'Permission not found',

  // Contact us
  contactReceived: 'Thank you, we will get back to you',

  // Idempotency-Key (API.md "Operations")
  idempotencyKeyReused: 'This Idempotency-Key was used for another request',
  idempotencyKeyRunning: 'A request with this Idempotency-Key is still being answered',
  idempotencyAnswerLost: 'This change was made; its answer was not kept. Reload to see it.',
  // The apps API (API.md "Apps API").
  appKeyMissing: 'Send the app’s key in the X-App-Key header',
  appKeyUnknown: 'This app key is not known (it may have been rotated)',
  appKey: 'The app key',
  appKeyRotated: 'A new app key is issued; the old one works for 24 more hours',
  appAccountDeleted: 'This account has been deleted',
  appAccountInactive: 'This account is suspended; contact the app’s support',
  appAccountDateLimit: 'This account’s access ended on',
  otpSent: 'If this number can sign in, a code is on its way',
  otpTooSoon: 'A code was just sent to this number; wait before asking again',
  otpTooMany: 'Too many codes asked for; try again later',
  otpWrong: 'This code is wrong or has expired; ask for a new one',
  refreshTokenInvalid: 'This refresh token is not valid; sign in again',
  refreshTokenReused:
    'This refresh token was already used, so the session has ended; sign in again',
  signedOut: 'Signed out',
  tryAgain: 'Something changed meanwhile; try again',
  posterLiked: 'Poster liked',
  posterUnliked: 'Like taken back',
  posterShared: 'Share noted',
  notificationRead: 'Notification marked read',
  // The trash (API.md "Planning festivals").
  restored: 'Restored',
  purged: 'Deleted forever',

  // Many posters at once (web app; API.md "Planning festivals")
  batchTooMany: 'At most 200 files at once: choose fewer, or send them in several batches',
  batchNoFiles: 'Choose at least one image',
  batchNotImage: 'Not an image: only JPEG, PNG, WebP or GIF files are accepted',
  batchTooLarge: 'The file is too large (at most 10 MB)',
} as const;
