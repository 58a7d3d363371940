import { Tag } from '@/components/ui/tag';

export function StatusBadge({ sold }: { sold: boolean }) {
  return sold ? (
    <Tag color="red" className="status-badge">
      Sold
    </Tag>
  ) : (
    <Tag color="green" className="status-badge">
      Available
    </Tag>
  );
}
