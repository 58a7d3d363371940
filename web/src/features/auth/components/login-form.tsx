import { Button, Form, Input } from 'antd';
import type { AuthAnswer, LoginBody } from '@tv-shop/contracts';
import { useSubmit } from '@/lib/use-submit';
import { login } from '../api/login';
import { EMAIL_RULES } from './field-rules';
import { Notice } from '@/components/ui/notice';

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
        extra={<span className="forgot-password">Forgot Password</span>}
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
