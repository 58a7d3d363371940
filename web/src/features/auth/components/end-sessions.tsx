import { Button } from 'antd';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Notice } from '@/components/ui/notice';
import { useSessionUser, useSignIn } from '@/lib/session';
import { useSubmit } from '@/lib/use-submit';
import { endOtherSessions } from '../api/end-sessions';

/**
 * Signs the account out on every other browser and device (ADR 0062), asked for twice: a lost
 * phone, a shared computer. It works for an account opened with Google too, which has no password
 * to change. This tab stays signed in with the new token.
 */
export function EndSessions() {
  const user = useSessionUser();
  const signIn = useSignIn();
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState(false);
  const { submit, busy, error } = useSubmit(async () => {
    const answer = await endOtherSessions();
    if (user) signIn(answer.token, user);
    setAsking(false);
    setDone(true);
    toast.success('Signed out everywhere else.');
  });
  return (
    <section className="account-password" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">Sign out everywhere else</h2>
      <p className="profile-card__hint">
        Signs this account out of every other browser and device, however it signed in there. You stay signed in here.
      </p>
      {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      {done ? (
        <Notice className="form-alert" type="success" role="status" title="Every other session of this account was signed out." />
      ) : null}
      {asking ? (
        <div className="account-sessions__confirm" role="group" aria-labelledby="account-sessions-ask">
          <p id="account-sessions-ask">Sign this account out of every other browser and device?</p>
          <Button type="primary" danger loading={busy} onClick={() => void submit()}>
            Yes, sign out everywhere else
          </Button>
          <Button disabled={busy} onClick={() => setAsking(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button
          onClick={() => {
            setAsking(true);
            setDone(false);
          }}
        >
          Sign out everywhere else
        </Button>
      )}
    </section>
  );
}
