import { useState, type ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { Text } from '@mantine/core';
import type { ApiError } from '../../../api/client.ts';
import accountClasses from '../../account/Account.module.css';
import { DeleteConfirm } from './DeleteConfirm.tsx';
import { RowActions } from './RowActions.tsx';

interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface CatalogueTableProps<T extends { id: number }> {
  rows: T[];
  /** `plan` gives data-testid plan-list and plan-row. */
  testId: string;
  empty: string;
  /** The first column: what the row sells. */
  head: { label: string; cell: (row: T) => ReactNode };
  columns: Column<T>[];
  actionsLabel: string;
  name: (row: T) => string;
  remove: UseMutationResult<{ message?: string }, ApiError, number>;
  deleteTitle: (row: T | null) => string;
  deleteBody: string;
  onEdit: (row: T) => void;
}

/** A catalogue list (plans, TLD prices): a table, a card per row on a phone, edit and delete per row. */
export function CatalogueTable<T extends { id: number }>({
  rows,
  testId,
  empty,
  head,
  columns,
  actionsLabel,
  name,
  remove,
  deleteTitle,
  deleteBody,
  onEdit,
}: CatalogueTableProps<T>) {
  const [deleting, setDeleting] = useState<T | null>(null);

  if (rows.length === 0) {
    return (
      <Text c="dimmed" fz="sm" ta="center" py="md">
        {empty}
      </Text>
    );
  }
  return (
    <>
      <table className={accountClasses.table} data-testid={`${testId}-list`}>
        <thead>
          <tr>
            <th scope="col">{head.label}</th>
            {columns.map((column) => (
              <th key={column.label} scope="col">
                {column.label}
              </th>
            ))}
            <th scope="col">
              <span className={accountClasses.visuallyHidden}>{actionsLabel}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid={`${testId}-row`}>
              <td>{head.cell(row)}</td>
              {columns.map((column) => (
                <td key={column.label} data-label={column.label} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
              <td className={accountClasses.actionCell}>
                <RowActions
                  name={name(row)}
                  onEdit={() => {
                    onEdit(row);
                  }}
                  onDelete={() => {
                    setDeleting(row);
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <DeleteConfirm
        target={deleting ? { id: deleting.id, name: name(deleting) } : null}
        title={deleteTitle(deleting)}
        body={deleteBody}
        remove={remove}
        onClose={() => {
          setDeleting(null);
        }}
      />
    </>
  );
}
