// The body of PATCH /api/admin/users/:id (catalog recipes/admin-users/update-fields): role ("admin" or "user")
// and isActive (boolean), both optional; any other key, or another value, is named in one 400 and nothing changes.
import { isRole, ROLES, type Role } from '../auth/index.ts';
import { type FieldProblem, validationError } from './api-error.ts';

export interface UserChange {
  readonly role?: Role;
  readonly isActive?: boolean;
}

const ROLE_PROBLEM = `must be one of ${ROLES.map((role) => JSON.stringify(role)).join(', ')}`;

/** The change in `body`, or a 400 naming every key at fault. */
export function userChangeOf(body: Record<string, unknown>): UserChange {
  const problems: FieldProblem[] = [];
  const change: { role?: Role; isActive?: boolean } = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'role') {
      if (isRole(value)) change.role = value;
      else problems.push({ field: key, message: ROLE_PROBLEM });
    } else if (key === 'isActive') {
      if (typeof value === 'boolean') change.isActive = value;
      else problems.push({ field: key, message: 'must be a boolean' });
    } else {
      problems.push({ field: key, message: 'is not a field that can be changed (role, isActive)' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
  return change;
}
