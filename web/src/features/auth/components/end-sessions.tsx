import { Button } from 'antd';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Notice } from '@/components/ui/notice';
import { useSignOut } from '@/lib/session';
import { useSubmit } from '@/lib/use-submit';
import { endAllSessions } from '../api/end-sessions';

/**
 * Signs the account out on every browser and device, this one too (ADR 0062), asked for twice: a
 * lost phone, a shared computer. It works for an account opened with Google too, which has no
 * password to change. The holder then signs in again.
 */
export function EndSessions() {
  const signOut = useSignOut();
  const [asking, setAsking] = useState(false);
  const { submit, busy, error } = useSubmit(async () => {
    await endAllSessions();
    signOut({ quiet: true, endOnServer: false });
    toast.success('Signed out everywhere. Log in again to go on.', { id: 'signed-out-everywhere' });
  });
  return (
    <section className="account-password" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">Sign out everywhere</h2>
      <p className="profile-card__hint">
        Signs this account out of every browser and device, however it signed in there, this one included. Use it if you lost a device or
        signed in on a computer that is not yours.
      </p>
      {error ? <Notice className="form-alert" type="error" title={error} role="alert" /> : null}
      {asking ? (
        <div className="account-sessions__confirm" role="group" aria-labelledby="account-sessions-ask">
          <p id="account-sessions-ask">Sign this account out everywhere, here too?</p>
          <Button type="primary" danger loading={busy} onClick={() => void submit()}>
            Yes, sign out everywhere
          </Button>
          <Button disabled={busy} onClick={() => setAsking(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button onClick={() => setAsking(true)}>Sign out everywhere</Button>
      )}
    </section>
  );
}
