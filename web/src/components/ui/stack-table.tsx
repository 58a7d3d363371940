import { Table, type TableProps } from 'antd';
import type { TdHTMLAttributes } from 'react';

/**
 * A dashboard table that fits every screen without scrolling sideways: a table on wide screens
 * (long names and emails wrap, buttons never do), and below 992 px each row a card whose cells
 * are labelled with their column's title (styles.css, `.stack-table`), so a phone shows every
 * button, Pay included, without hiding any of it off to the side.
 */
export function StackTable<T extends object>({ columns = [], className, ...props }: TableProps<T>) {
  const labelled = columns.map((column) => ({
    ...column,
    onCell: (record: T, index?: number) =>
      ({
        ...column.onCell?.(record, index),
        'data-label': typeof column.title === 'string' ? column.title : undefined,
      }) as TdHTMLAttributes<HTMLTableCellElement>,
  }));
  return (
    <Table<T>
      pagination={false}
      size="middle"
      {...props}
      tableLayout="auto"
      className={className ? `stack-table ${className}` : 'stack-table'}
      columns={labelled}
    />
  );
}
