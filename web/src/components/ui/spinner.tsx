import './skeleton.css';

/**
 * The loading animation shown while a guard's role check, the session or one record is pending
 * (lists show placeholders in their shape instead: skeleton.tsx). A CSS ring, so the first page
 * does not wait for antd's Spin.
 */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__ring" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
