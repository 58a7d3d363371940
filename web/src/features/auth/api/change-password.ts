import type { ChangePasswordBody, PasswordChangedAnswer } from '@tv-shop/contracts';
import { apiRequest, whileTokenChanges } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/**
 * The signed-in account's own password; the answer's token keeps this session (the others end,
 * ADR 0060). Until the answer is in and its token stored, a 401 to the old token elsewhere in the
 * page (the live connection's session check, say) waits, and then ends nothing.
 */
export const changePassword = (body: ChangePasswordBody): Promise<PasswordChangedAnswer> =>
  whileTokenChanges(
    (async () => {
      const answer = await apiRequest<PasswordChangedAnswer>('/account/password', { method: 'PUT', body, changesToken: true });
      tokenStorage.set(answer.token);
      return answer;
    })(),
  );
