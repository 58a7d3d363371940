import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useId, useState } from 'react';
import type { AuthAnswer, LoginBody } from '@tv-shop/contracts';
import { useSubmit } from '@/lib/use-submit';
import { login } from '../api/login';
import { EMAIL_RULES } from './field-rules';
import { Notice } from '@/components/ui/notice';

export const NO_PASSWORD_RESET =
  'TV Shop cannot send email yet, so a forgotten password cannot be reset here. Your browser may have saved it; otherwise, sign up again with another email.';

/**
 * The spec's 'Forgot Password' text: pressed, it says what can be done rather than look like a
 * link that does nothing. Beside the password field, not its description (antd's `extra` is read
 * out with the field).
 */
function ForgotPassword() {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="forgot-password">
      <button
        type="button"
        className="link-button forgot-password__toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        Forgot Password
      </button>
      <p id={id} className="forgot-password__help" hidden={!open}>
        {NO_PASSWORD_RESET}
      </p>
    </div>
  );
}

/** Email and password; a wrong password is said in words, not only logged. */
export function LoginForm({ onSignedIn }: { onSignedIn: (answer: AuthAnswer) => void }) {
  const { submit, busy, error, setError } = useSubmit(async (values: LoginBody) => onSignedIn(await login(values)));

  return (
    // A refusal is about what was typed: it goes as soon as the user types again. The form's own
    // messages say what is wrong (noValidate: not the browser's bubble on top of them).
    <Form<LoginBody> name="login" layout="vertical" onFinish={submit} onValuesChange={() => setError(null)} requiredMark={false} noValidate>
      <Form.Item label="Email" name="email" rules={EMAIL_RULES}>
        <Input type="email" autoComplete="email" autoFocus />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Please enter your password' }]}>
        <Password autoComplete="current-password" />
      </Form.Item>
      <ForgotPassword />
      {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      <Button type="primary" htmlType="submit" block loading={busy}>
        Login
      </Button>
    </Form>
  );
}
