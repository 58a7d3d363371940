import type { ChangeEvent, SelectHTMLAttributes } from 'react';

type FormSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  options: readonly { value: string; label: string }[];
  /** Shown, and not choosable, until something is picked. */
  placeholder?: string;
  /** A choice of nothing in particular ("Any type"), for a filter: choosable, its value empty. */
  anyLabel?: string;
  /** Given by antd's Form.Item, which reads the new value from the change event. */
  value?: string;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
};

/**
 * A choice in a form (Condition, Category, Role): the browser's own <select> in the look of
 * antd's inputs (ui.css), inside antd's Form.Item, which gives it its id, value, aria-required
 * and aria-invalid. Native, so a phone shows its own picker and the form does not download
 * antd's Select (ADR 0043).
 */
export function FormSelect({ options, placeholder, anyLabel, value, className, ...props }: FormSelectProps) {
  return (
    <select {...props} value={value ?? ''} className={className ? `field-select ${className}` : 'field-select'}>
      {anyLabel !== undefined ? (
        <option value="">{anyLabel}</option>
      ) : placeholder !== undefined || value === undefined ? (
        <option value="" disabled hidden>
          {placeholder ?? ''}
        </option>
      ) : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
