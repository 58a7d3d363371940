import { Divider } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { GoogleButton } from '@/features/auth/components/google-button';
import { SignupForm } from '@/features/auth/components/signup-form';
import { usePageTitle } from '@/lib/use-page-title';
import { Notice } from '@/components/ui/notice';
import { AlreadySignedIn } from './already-signed-in';
import { useReturnAfterSignIn, useSignInReason } from './use-return-after-sign-in';
import { withAntd } from '@/lib/antd-theme';

function SignupPageContent() {
  usePageTitle(paths.signup.title);
  const location = useLocation();
  const reason = useSignInReason('signup');
  const done = useReturnAfterSignIn('Succusfully SignUp');
  const google = useReturnAfterSignIn('Succusfully SignIn');
  return (
    <div className="page auth-page">
      <section className="auth-card" aria-labelledby="signup-heading">
        <h1 id="signup-heading">Sign Up</h1>
        {reason ? <Notice type="info" role="status" className="auth-card__reason" title={reason} /> : null}
        <AlreadySignedIn />
        <SignupForm onSignedUp={done} />
        <p className="auth-card__switch">
          Already have an account?{' '}
          <Link to={paths.login.href()} state={location.state as unknown}>
            Please Login
          </Link>
        </p>
        <Divider plain>OR</Divider>
        <GoogleButton onSignedIn={google} />
        {/* The server opens a Google account as a buyer's, and a role never changes afterwards. */}
        <p className="auth-card__switch">Google opens a buyer account. To sell, sign up with your email above.</p>
      </section>
    </div>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const SignupPage = withAntd(SignupPageContent);
