import { Divider } from 'antd';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { GoogleButton } from '@/features/auth/components/google-button';
import { LoginForm } from '@/features/auth/components/login-form';
import { sessionAtom } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';
import { Notice } from '@/components/ui/notice';
import { AlreadySignedIn } from './already-signed-in';
import { useReturnAfterSignIn, useSignInReason } from './use-return-after-sign-in';
import { withAntd } from '@/lib/antd-theme';

/**
 * The reason the server ended the session is said once, here (this page's state keeps it): a later
 * redirect by a guard, for whoever uses this browser next, says its own reason instead.
 */
function useForgetEndedReason() {
  const [session, setSession] = useAtom(sessionAtom);
  useEffect(() => {
    if (session.status === 'signed-out' && session.ended) setSession({ status: 'signed-out' });
  }, [session, setSession]);
}

function LoginPageContent() {
  usePageTitle(paths.login.title);
  const location = useLocation();
  const reason = useSignInReason('login');
  const done = useReturnAfterSignIn('Succusfully SignIn');
  useForgetEndedReason();
  return (
    <div className="page auth-page">
      <section className="auth-card" aria-labelledby="login-heading">
        <h1 id="login-heading">Login</h1>
        {reason ? <Notice type="info" role="status" className="auth-card__reason" title={reason} /> : null}
        <AlreadySignedIn />
        <LoginForm onSignedIn={done} />
        <p className="auth-card__switch">
          New to TV Shop? {/* Keep where the user came from, so signing up also returns there. */}
          <Link to={paths.signup.href()} state={location.state as unknown}>
            Create new account
          </Link>
        </p>
        <Divider plain>OR</Divider>
        <GoogleButton onSignedIn={done} />
      </section>
    </div>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const LoginPage = withAntd(LoginPageContent);
