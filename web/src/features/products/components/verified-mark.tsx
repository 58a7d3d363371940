import { CheckCircleIcon } from '@/components/ui/icons';

export function VerifiedMark() {
  return <CheckCircleIcon className="verified-mark" title="Verified seller" aria-label="verified seller" />;
}
