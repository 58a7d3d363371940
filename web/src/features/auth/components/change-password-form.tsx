import { Button, Form } from 'antd';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useAtomValue } from 'jotai';
import { SESSION_REFUSED } from '@tv-shop/contracts';
import { SESSION_ENDED_TOAST, sessionTokenAtom, useEndSession, useSessionUser, useSignIn } from '@/lib/session';
import { useSubmit } from '@/lib/use-submit';
import { changePassword } from '../api/change-password';
import { newPasswordRules } from './field-rules';
import { Notice } from '@/components/ui/notice';

interface Values {
  current_password: string;
  new_password: string;
  confirm: string;
}

/**
 * The signed-in account's password, changed with the current one (ADR 0060). This tab stays
 * signed in with the new token; every other session of the account (another browser, a phone)
 * is signed out.
 */
export function ChangePasswordForm() {
  const user = useSessionUser();
  const signIn = useSignIn();
  const endSession = useEndSession();
  const token = useAtomValue(sessionTokenAtom);
  const [form] = Form.useForm<Values>();
  const [done, setDone] = useState(false);
  const { submit, busy, error, setError } = useSubmit(async ({ current_password, new_password }: Values) => {
    const answer = await changePassword({ current_password, new_password });
    if (answer.token === null) {
      // Changed, but no token could be issued yet: this session ends like the others, and the
      // login page says why. One toast: this one takes the place of the session's "has ended".
      endSession(token ?? undefined, SESSION_REFUSED.ended);
      toast.success('Password changed. Log in with the new one.', { id: SESSION_ENDED_TOAST });
      return;
    }
    if (user) signIn(answer.token, user);
    form.resetFields();
    setDone(true);
    toast.success('Password changed.');
  });
  return (
    <section className="account-password" aria-labelledby="account-password-title">
      <h2 id="account-password-title">Change password</h2>
      <p className="profile-card__hint">You stay signed in here; everywhere else you signed in with this account is signed out.</p>
      <Form<Values>
        form={form}
        name="change-password"
        layout="vertical"
        onFinish={submit}
        onValuesChange={() => {
          setError(null);
          setDone(false);
        }}
        requiredMark={false}
      >
        <Form.Item
          label="Current password"
          name="current_password"
          rules={[{ required: true, message: 'Please enter your current password' }]}
        >
          <Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="New password"
          name="new_password"
          rules={[
            ...newPasswordRules('Please enter a new password'),
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                value && value === getFieldValue('current_password')
                  ? Promise.reject(new Error('The new password must differ from the current one'))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm new password"
          name="confirm"
          dependencies={['new_password']}
          rules={[
            { required: true, message: 'Please type the new password again' },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('new_password')
                  ? Promise.resolve()
                  : Promise.reject(new Error('The two passwords differ')),
            }),
          ]}
        >
          <Password autoComplete="new-password" />
        </Form.Item>
        {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
        {done ? (
          <Notice
            className="form-alert"
            type="success"
            role="status"
            title="Password changed. Other sessions of this account were signed out."
          />
        ) : null}
        <Button type="primary" htmlType="submit" loading={busy}>
          Change password
        </Button>
      </Form>
    </section>
  );
}
