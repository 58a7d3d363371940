import type { SessionsEndedAnswer } from '@tv-shop/contracts';
import { apiRequest, whileTokenChanges } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/**
 * Signs the account out everywhere else (ADR 0062): every other session's token stops working, and
 * the answer's token keeps this one. Like a new password, a 401 to the old token elsewhere in the
 * page while the answer is on its way waits for it, and then ends nothing.
 */
export const endOtherSessions = (): Promise<SessionsEndedAnswer> =>
  whileTokenChanges(
    (async () => {
      const answer = await apiRequest<SessionsEndedAnswer>('/account/sessions', { method: 'DELETE', changesToken: true });
      tokenStorage.set(answer.token);
      return answer;
    })(),
  );
