import type { ChangePasswordBody, PasswordChangedAnswer } from '@tv-shop/contracts';
import { apiRequest, whileTokenChanges } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/**
 * The signed-in account's own password; the answer's token keeps this session (the others end,
 * ADR 0060). Until the answer is in and its token stored, a 401 to the old token elsewhere in the
 * page (the live connection's session check, say) waits, and then ends nothing. An answer with no
 * token (202: stored, but the server had not caught up with it) stores none: the caller ends the
 * session, which could not go on with the old one.
 */
export const changePassword = (body: ChangePasswordBody): Promise<PasswordChangedAnswer> =>
  whileTokenChanges(
    (async () => {
      const answer = await apiRequest<PasswordChangedAnswer>('/account/password', { method: 'PUT', body, changesToken: true });
      if (answer.token) tokenStorage.set(answer.token);
      return answer;
    })(),
  );
