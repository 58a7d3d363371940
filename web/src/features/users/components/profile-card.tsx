import { Avatar, Card, Descriptions } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import type { User } from '@tv-shop/contracts';

/** The dashboard's welcome: role, name, email and photo of whoever is signed in. */
export function ProfileCard({ user }: { user: User }) {
  return (
    <Card className="profile-card">
      <div className="profile-card__head">
        <Avatar size={96} src={user.photoURL || undefined} icon={<UserOutlined />} alt={user.name} />
        <div>
          <p className="profile-card__kicker">Welcome, {user.role}</p>
          <h1 className="profile-card__name">{user.name}</h1>
        </div>
      </div>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Role">{user.role}</Descriptions.Item>
        <Descriptions.Item label="Name">{user.name}</Descriptions.Item>
        <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
