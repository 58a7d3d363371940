import { Button, Form, Input } from 'antd';
import { useId, useState } from 'react';
import type { AuthAnswer, LoginBody } from '@tv-shop/contracts';
import { useSubmit } from '@/lib/use-submit';
import { login } from '../api/login';
import { EMAIL_RULES } from './field-rules';
import { Notice } from '@/components/ui/notice';

export const NO_PASSWORD_RESET =
  'TV Shop does not send email yet, so a forgotten password cannot be reset here. If your email is a Google account and this shop offers Google sign-in, Continue with Google below opens the same account.';

/** The spec's 'Forgot Password' text: it says what can be done, rather than look like a link that does nothing. */
function ForgotPassword() {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="link-button forgot-password"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        Forgot Password
      </button>
      {open ? (
        <span id={id} className="forgot-password__help">
          {NO_PASSWORD_RESET}
        </span>
      ) : null}
    </>
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
      <Form.Item
        label="Password"
        name="password"
        rules={[{ required: true, message: 'Please enter your password' }]}
        extra={<ForgotPassword />}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      <Button type="primary" htmlType="submit" block loading={busy}>
        Login
      </Button>
    </Form>
  );
}
