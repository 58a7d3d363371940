import { Button, Popconfirm } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { User } from '@tv-shop/contracts';

export function DeleteUserButton({ user, busy, onDelete }: { user: User; busy: boolean; onDelete: () => void }) {
  return (
    <Popconfirm title={`Delete ${user.name}?`} okText="Delete" okButtonProps={{ danger: true }} onConfirm={onDelete}>
      <Button danger icon={<DeleteOutlined />} aria-label={`Delete ${user.name}`} loading={busy} />
    </Popconfirm>
  );
}
