import { Select, type RefSelectProps, type SelectProps } from 'antd';
import { useEffect, useRef } from 'react';

type FormSelectProps = SelectProps & { 'aria-required'?: boolean | 'true' | 'false' };

/**
 * antd's Select for a Form.Item with a required rule. Form.Item marks its control aria-required,
 * and Select puts that on its outer <div>, where ARIA does not allow it (axe: aria-allowed-attr,
 * critical). This one says it on the combobox inside, where a screen reader looks for it.
 */
export function FormSelect({ 'aria-required': required, ...props }: FormSelectProps) {
  const select = useRef<RefSelectProps>(null);
  const isRequired = required === true || required === 'true';
  useEffect(() => {
    const combobox = select.current?.nativeElement?.querySelector('[role="combobox"]');
    if (isRequired) combobox?.setAttribute('aria-required', 'true');
    else combobox?.removeAttribute('aria-required');
  }, [isRequired]);
  return <Select ref={select} {...props} />;
}
