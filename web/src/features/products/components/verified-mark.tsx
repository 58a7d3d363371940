import { CheckCircleFilled } from '@ant-design/icons';

export function VerifiedMark() {
  return <CheckCircleFilled className="verified-mark" aria-label="verified seller" role="img" title="Verified seller" />;
}
