import { Avatar } from 'antd';
import { UserOutlined } from '@ant-design/icons';

export function RowAvatar({ src, alt }: { src?: string; alt: string }) {
  return <Avatar size={48} src={src || undefined} icon={src ? undefined : <UserOutlined />} alt={alt} shape="square" />;
}
