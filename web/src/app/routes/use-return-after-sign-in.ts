import { SESSION_REFUSED, type AuthAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import type { BackToBook } from '@/features/products/components/product-actions';
import { useSignIn } from '@/lib/session';

/**
 * What a page that sends someone to log in puts in the navigation's state: where they were, to
 * come back to, and why: Book Now says 'book', a guard 'guard', a session the server ended
 * 'session-ended' (its toast has said that it ended; the page says why, when the server did).
 */
export interface SentToSignIn {
  from?: Location;
  reason?: 'book' | 'guard' | 'session-ended';
  /** The server's reason for ending the session ("This account no longer exists"). */
  why?: string;
  /** Book Now's TV: once a buyer is signed in, its booking form opens on the page they come back to. */
  book?: string;
}

/** Why this visit to login (or signup) happened, in a sentence; null when there is nothing to say. */
export function useSignInReason(page: 'login' | 'signup'): string | null {
  const state = useLocation().state as SentToSignIn | null;
  const act = page === 'login' ? 'Log in' : 'Sign up';
  if (state?.reason === 'book') return `${act} as a buyer to book this TV. You will come back to it afterwards.`;
  if (state?.reason === 'guard') return `${act} to open that page. You will come back to it afterwards.`;
  if (state?.reason === 'session-ended') {
    const because = state.why === undefined ? undefined : ENDED_BECAUSE.get(state.why);
    return because ? `Your session ended: ${because}` : `Your session has ended. ${LOG_IN_AGAIN}`;
  }
  return null;
}

/** The server's reasons for refusing a session (a 401's detail), in the login page's words. */
const LOG_IN_AGAIN = 'Log in again to go back to that page.';
const ENDED_BECAUSE = new Map<string, string>([
  [SESSION_REFUSED.accountGone, 'this account no longer exists.'],
  [SESSION_REFUSED.ended, `the password of this account was changed, or it was signed out everywhere. ${LOG_IN_AGAIN}`],
  [SESSION_REFUSED.signedOut, `it was logged out. ${LOG_IN_AGAIN}`],
  [SESSION_REFUSED.invalid, `it expired. ${LOG_IN_AGAIN}`],
]);

/** Where a guard (or Book Now) sent the user from; login and signup return there, else home. */
export function useReturnAfterSignIn(successText: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useSignIn();
  const sent = location.state as SentToSignIn | null;
  const from = sent?.from;
  // Only a buyer can book: a seller who signed in from Book Now just comes back to the page.
  const book = sent?.reason === 'book' ? sent.book : undefined;
  return useCallback(
    ({ token, user }: AuthAnswer) => {
      signIn(token, user);
      toast.success(successText);
      const back: BackToBook | null = book && user.role === 'Buyer' ? { openBooking: book } : null;
      void navigate(from ? `${from.pathname}${from.search}${from.hash}` : '/', { replace: true, state: back });
    },
    [book, from, navigate, signIn, successText],
  );
}
