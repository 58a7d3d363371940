import { paths } from '@/config/paths';
import { ProfileCard } from '@/features/users/components/profile-card';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function ProfilePage() {
  usePageTitle(paths.dashboard.root.title);
  const user = useSessionUser();
  return user ? <ProfileCard user={user} /> : null;
}
