import type { Key, ReactNode } from 'react';
import './stack-table.css';

/** A column: its title (also each cell's label on a phone), and what its cells show. */
export interface StackColumn<T> {
  title: string;
  /** Identifies the column; `dataIndex` does when left out. */
  key?: string;
  /** The field a cell shows when there is no `render`. */
  dataIndex?: keyof T & string;
  render?: (value: unknown, row: T, index: number) => ReactNode;
  /** `cell-nowrap` keeps a price or a date on one line. */
  className?: string;
}

interface StackTableProps<T> {
  columns: StackColumn<T>[];
  dataSource: readonly T[];
  rowKey: keyof T & string;
  rowClassName?: (row: T) => string;
  className?: string;
}

/**
 * A dashboard table that fits every screen without scrolling sideways: a table on wide screens
 * (long names and emails wrap, buttons never do), and below 992 px each row a card whose cells
 * are labelled with their column's title (stack-table.css), so a phone shows every button, Pay
 * included, without hiding any of it off to the side. Plain markup in antd's table look: the
 * dashboard's lists do not download antd's Table (ADR 0043).
 */
export function StackTable<T extends object>({ columns, dataSource, rowKey, rowClassName, className }: StackTableProps<T>) {
  const keyOf = (column: StackColumn<T>, i: number) => column.key ?? column.dataIndex ?? String(i);
  return (
    <div className={className ? `stack-table ${className}` : 'stack-table'}>
      <table>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={keyOf(column, i)} scope="col">
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {dataSource.map((row, index) => (
            <tr key={row[rowKey] as Key} data-row-key={String(row[rowKey])} className={rowClassName?.(row) || undefined}>
              {columns.map((column, i) => {
                const value = column.dataIndex ? row[column.dataIndex] : undefined;
                return (
                  <td key={keyOf(column, i)} className={column.className} data-label={column.title}>
                    {column.render ? column.render(value, row, index) : (value as ReactNode)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
