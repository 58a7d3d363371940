import { Suspense } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useReportedProducts } from '@/features/products/api/get-reported-products';
import { ProfileCard } from '@/features/users/components/profile-card';
import { PartBoundary } from '@/components/ui/part-boundary';
import { retryableLazy } from '@/lib/code-download';
import { hasRole, useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

/** Only the admin's home has the overview (built with antd, in its theme), so only the admin downloads it. */
const AdminOverview = retryableLazy(() =>
  Promise.all([import('@/features/audit/components/admin-overview'), import('@/lib/antd-theme')]).then(([m, t]) =>
    t.withAntd(m.AdminOverview),
  ),
);

/** Changing the password is a form of antd's (in its theme), fetched after the profile has painted. */
const ChangePasswordForm = retryableLazy(() =>
  Promise.all([import('@/features/auth/components/change-password-form'), import('@/lib/antd-theme')]).then(([m, t]) =>
    t.withAntd(m.ChangePasswordForm),
  ),
);

/** The account's name and photo, antd's form too, fetched with the password form. */
const EditProfileForm = retryableLazy(() =>
  Promise.all([import('@/features/users/components/edit-profile-form'), import('@/lib/antd-theme')]).then(([m, t]) =>
    t.withAntd(m.EditProfileForm),
  ),
);

/** Signing out everywhere, antd's too, fetched with the password form. */
const EndSessions = retryableLazy(() =>
  Promise.all([import('@/features/auth/components/end-sessions'), import('@/lib/antd-theme')]).then(([m, t]) => t.withAntd(m.EndSessions)),
);

/** The overview's open reports counted from the live list of reported items, which pushes keep current. */
function AdminHome() {
  const reported = useReportedProducts();
  const openReports = reported.loading || reported.error ? undefined : reported.products.length;
  return (
    <PartBoundary what="the overview">
      <Suspense fallback={<Spinner label="Loading the overview" />}>
        <AdminOverview openReports={openReports} />
      </Suspense>
    </PartBoundary>
  );
}

export function ProfilePage() {
  usePageTitle(paths.dashboard.root.title);
  const user = useSessionUser();
  if (!user) return null;
  return (
    <>
      <ProfileCard user={user} />
      {hasRole(user, 'Admin') && <AdminHome />}
      <PartBoundary what="the forms to change your name, photo and password">
        <Suspense fallback={null}>
          <EditProfileForm />
          <ChangePasswordForm />
          <EndSessions />
        </Suspense>
      </PartBoundary>
    </>
  );
}
