import { Button } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { User } from '@tv-shop/contracts';
import { ConfirmAction } from '@/components/ui/confirm-action';

/** What deleting an account does beyond the account, said before the admin confirms. */
const consequences = (user: User) =>
  user.role === 'Seller'
    ? 'Their account closes, their unsold listings leave the shop and unpaid bookings of those TVs are cancelled.'
    : user.role === 'Buyer'
      ? 'Their account closes and their unpaid bookings are cancelled.'
      : 'Their account closes.';

export function DeleteUserButton({ user, busy, onDelete }: { user: User; busy: boolean; onDelete: () => void }) {
  return (
    <ConfirmAction
      title={`Delete ${user.name}?`}
      description={consequences(user)}
      okText="Delete"
      okButtonProps={{ danger: true }}
      onConfirm={onDelete}
    >
      <Button danger icon={<DeleteOutlined />} aria-label={`Delete ${user.name}`} loading={busy} />
    </ConfirmAction>
  );
}
