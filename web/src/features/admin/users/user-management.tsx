import { AddUserForm } from './add-user-form.js';
import { ResetPasswordForm } from './reset-password-form.js';
import { UserList } from './user-list.js';

/** Add a user, reset a password, list users with a role badge (Admins only). */
export function UserManagement() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <UserList />
      <AddUserForm />
      <ResetPasswordForm />
    </div>
  );
}
