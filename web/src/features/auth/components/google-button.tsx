import { Button } from 'antd';
import { GoogleOutlined } from '@ant-design/icons';
import type { AuthAnswer } from '@tv-shop/contracts';
import { useState } from 'react';
import { ApiError, errorMessage } from '@/lib/api-client';
import { getPublicConfig } from '../api/get-public-config';
import { googleLogin } from '../api/google-login';
import { requestGoogleCredential } from '../google-identity';
import { Notice } from '@/components/ui/notice';

const NOT_CONFIGURED = 'Google sign-in is not configured on this server.';

export function GoogleButton({ onSignedIn }: { onSignedIn: (answer: AuthAnswer) => void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const signIn = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const { googleClientId } = await getPublicConfig();
      if (!googleClientId) throw new Error(NOT_CONFIGURED);
      const credential = await requestGoogleCredential(googleClientId);
      onSignedIn(await googleLogin(credential));
    } catch (error) {
      // The server answers 400/501 when Google is off; say so plainly either way.
      const text =
        error instanceof ApiError && (error.status === 501 || /not configured/i.test(error.problem.title))
          ? NOT_CONFIGURED
          : errorMessage(error);
      // Said once, under the button (a toast as well said the same sentence twice).
      setMessage(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="google-signin">
      <Button block icon={<GoogleOutlined />} loading={busy} onClick={signIn}>
        Continue with Google
      </Button>
      {message ? <Notice className="form-alert" type="warning" title={message} role="alert" /> : null}
    </div>
  );
}
