/** /admin/audit: the audit log, newest first, filtered by action, actor or target. */
import { AUDIT_ACTIONS, type AuditEntry } from '@bountyhunt/shared/admin';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTablePage } from '../api/use-table-page';
import { PagedTable, timeColumn, type Column } from '../components/paged-table';

function Changes({ entry }: { entry: AuditEntry }) {
  const names = [
    ...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]),
  ];
  if (!names.length) return <>—</>;
  const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', wordBreak: 'break-word' }}>
      {names.map((n) => (
        <li key={n}>
          <Typography variant="body2" component="span" color="text.secondary">
            {n}:{' '}
          </Typography>
          <Typography variant="body2" component="span">
            {show(entry.before?.[n])} → {show(entry.after?.[n])}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

const columns: Column<AuditEntry>[] = [
  timeColumn('time', 'Time', (e) => e.created),
  {
    key: 'actor',
    label: 'Actor',
    render: (e) => e.actorEmail ?? (e.actorId ? `#${e.actorId}` : '—'),
  },
  { key: 'action', label: 'Action', render: (e) => <code>{e.action}</code> },
  {
    key: 'target',
    label: 'Target',
    render: (e) => (e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : '—'),
  },
  { key: 'changes', label: 'Changes', render: (e) => <Changes entry={e} /> },
  { key: 'ip', label: 'IP', render: (e) => e.ip ?? '—' },
];

export default function AuditPage() {
  const [search, setSearch] = useSearchParams();
  const [actorId, setActorId] = useState(search.get('actorId') ?? '');
  const filters = {
    action: search.get('action') ?? undefined,
    actorId: search.get('actorId') ?? undefined,
    targetType: search.get('targetType') ?? undefined,
    targetId: search.get('targetId') ?? undefined,
  };
  const table = useTablePage<AuditEntry>('/admin/audit', filters);
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Audit log
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label="Action"
          value={filters.action ?? ''}
          onChange={(e) => setFilter('action', e.target.value)}
          fullWidth={false}
          sx={{ width: 260 }}
        >
          <MenuItem value="">All actions</MenuItem>
          {AUDIT_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {a}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Actor id"
          fullWidth={false}
          sx={{ width: 140 }}
          value={actorId}
          onChange={(e) => setActorId(e.target.value.replace(/\D/g, ''))}
          onBlur={() => setFilter('actorId', actorId)}
          onKeyDown={(e) => e.key === 'Enter' && setFilter('actorId', actorId)}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        {filters.targetType && (
          <TextField
            size="small"
            label="Target"
            value={`${filters.targetType} ${filters.targetId ?? ''}`}
            slotProps={{ input: { readOnly: true } }}
            helperText="From a user or item page"
          />
        )}
      </Box>
      <PagedTable
        label="Audit log"
        columns={columns}
        table={table}
        rowKey={(e) => e.auditId}
        empty="Nothing recorded yet."
      />
    </Box>
  );
}
