import type { FormRule } from 'antd';

/** The email field's checks, the same on the login and the signup form. */
export const EMAIL_RULES: FormRule[] = [
  { required: true, message: 'Please enter your email' },
  { type: 'email', message: 'Please enter an email address, like name@example.com' },
];

/** A new password's checks (signup, change password): the server's rule (SignupBody), said before the form is sent. */
export const newPasswordRules = (missing: string): FormRule[] => [
  { required: true, message: missing },
  { min: 6, message: 'Password must be at least 6 characters' },
];
