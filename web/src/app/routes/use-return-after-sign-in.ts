import type { AuthAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { useSignIn } from '@/lib/session';

/** Where a guard (or Book Now) sent the user from; login and signup return there, else home. */
export function useReturnAfterSignIn(successText: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useSignIn();
  const from = (location.state as { from?: Location } | null)?.from;
  return useCallback(
    ({ token, user }: AuthAnswer) => {
      signIn(token, user);
      toast.success(successText);
      void navigate(from ? `${from.pathname}${from.search}${from.hash}` : '/', { replace: true });
    },
    [from, navigate, signIn, successText],
  );
}
