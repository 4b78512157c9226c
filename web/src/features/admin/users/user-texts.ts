/**
 * Texts of the user management view: the spec's contract (sections 4, 5 and 8), and the
 * badge of a user who has not yet chosen their own password (not in the spec).
 */
export const USER_TEXTS = {
  validationTitle: 'Validation Error',
  validationText: 'Please fill in all required fields',
  emptyList: 'No users found. Add a new user to get started.',
  addUser: 'Add User',
  adding: 'Adding...',
  userAdded: 'User Added',
  addFailed: 'Failed to add user',
  resetPassword: 'Reset Password',
  resetting: 'Resetting...',
  passwordReset: 'Password Reset',
  resetFailed: 'Failed to reset password',
  errorTitle: 'Error',
  mustChangePasswordBadge: 'Password not yet chosen',
  inactiveBadge: 'Inactive',
  demoBadge: 'Demo account',
  deactivate: 'Deactivate',
  deactivating: 'Deactivating...',
  reactivate: 'Reactivate',
  reactivating: 'Reactivating...',
  userDeactivated: 'User Deactivated',
  userReactivated: 'User Reactivated',
  deactivateFailed: 'Failed to deactivate user',
  reactivateFailed: 'Failed to reactivate user',
  /** `who` is 'Name (EMPLOYEE_ID)'. */
  reactivatedText: (who: string) => `${who} can sign in again.`,
  deactivatedText: (who: string) => `${who} is signed out and can no longer sign in.`,
  deactivateQuestion: (name: string) => `Deactivate ${name}?`,
  deactivateExplained: (who: string) =>
    `${who} is signed out at once on every device and cannot sign in until an Admin reactivates the account. Their records keep their name.`,
} as const;
