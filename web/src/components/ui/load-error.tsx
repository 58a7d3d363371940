import { Alert, Button } from 'antd';

type LoadErrorProps = ({ what: string; title?: never } | { title: string; what?: never }) & { error: string; onRetry: () => void };

/** A list that failed to load says so, with the server's words and a way to try again. */
export function LoadError({ what, title, error, onRetry }: LoadErrorProps) {
  return (
    <Alert
      className="load-error"
      type="error"
      showIcon
      role="alert"
      message={title ?? `Could not load the ${what}.`}
      description={error}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}
