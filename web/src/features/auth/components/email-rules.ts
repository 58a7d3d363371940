import type { FormRule } from 'antd';

/** The email field's checks, the same on the login and the signup form. */
export const EMAIL_RULES: FormRule[] = [
  { required: true, message: 'Please enter your email' },
  { type: 'email', message: 'Please enter an email address, like name@example.com' },
];
