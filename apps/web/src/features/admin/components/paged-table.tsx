/**
 * A server-paged table of the console (use with `useTablePage`): the columns, the rows of this
 * page, and Previous / Next. An empty page says so; a refused page shows the server's message.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { useTablePage } from '../api/use-table-page';
import { formatDateTime } from './format';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  width?: number | string;
}

export function PagedTable<T>({
  label,
  columns,
  table,
  rowKey,
  empty,
  onRowClick,
}: {
  /** The table's accessible name. */
  label: string;
  columns: Column<T>[];
  table: ReturnType<typeof useTablePage<T>>;
  rowKey: (row: T) => string | number;
  empty: string;
  onRowClick?: (row: T) => void;
}) {
  const { res, rows, isPending, isFetching } = table;
  if (res && res.status !== 200)
    return <Alert severity="error">{res.message || API_MSG.formOther(res.status)}</Alert>;
  return (
    <Paper variant="outlined">
      <Box sx={{ height: 4 }}>{isFetching && <LinearProgress aria-label="Loading" />}</Box>
      {/* A wide page scrolls sideways: focusable, so keyboards can scroll it too. */}
      <TableContainer tabIndex={0} role="region" aria-label={label}>
        <Table size="small" aria-label={label} aria-busy={isPending}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} sx={{ width: c.width, fontWeight: 700 }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={rowKey(row)}
                hover={!!onRowClick}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
                sx={onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {columns.map((c) => (
                  <TableCell key={c.key} sx={{ verticalAlign: 'top' }}>
                    {c.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {!isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns.length}>
                  <Typography color="text.secondary" sx={{ py: 2 }}>
                    {empty}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, p: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
          Page {table.page}
        </Typography>
        <Button size="small" onClick={table.prev} disabled={!table.hasPrev}>
          Previous
        </Button>
        <Button size="small" onClick={table.next} disabled={!table.hasNext}>
          Next
        </Button>
      </Box>
    </Paper>
  );
}

/** A time column (UTC, on one line). */
export function timeColumn<T>(
  key: string,
  label: string,
  at: (row: T) => string | null | undefined,
): Column<T> {
  return {
    key,
    label,
    render: (row) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(at(row))}</Box>,
  };
}
