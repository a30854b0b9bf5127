/**
 * /admin/users: find a user by id, or by the start of their e-mail address or handle; newest
 * first, paged on the server (x-next-cursor). A row opens the user's page.
 */
import type { AdminUserRow } from '@bountyhunt/shared/admin-users';
import { formatCount } from '@bountyhunt/shared/format';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useTablePage } from '../api/use-table-page';
import { formatDateTime } from '../components/format';
import { PagedTable, type Column } from '../components/paged-table';
import { formatDay, membershipLabel, roleNames, StatusChip } from '../components/user-labels';

const columns: Column<AdminUserRow>[] = [
  { key: 'id', label: 'ID', render: (u) => u.userId, width: 80 },
  {
    key: 'email',
    label: 'E-mail',
    render: (u) => (
      <Link
        component={RouterLink}
        to={`/admin/users/${u.userId}`}
        onClick={(e) => e.stopPropagation()}
      >
        {u.email}
      </Link>
    ),
  },
  { key: 'handle', label: 'Handle', render: (u) => u.handle ?? '—' },
  { key: 'role', label: 'Role', render: (u) => roleNames(u.role) },
  {
    key: 'membership',
    label: 'Membership',
    render: (u) => membershipLabel(u.membership, u.active),
  },
  { key: 'silver', label: 'Silver', render: (u) => formatCount(u.silver) },
  { key: 'identity', label: 'Identity', render: (u) => u.identityStatus },
  { key: 'status', label: 'Status', render: (u) => <StatusChip suspended={u.suspended} /> },
  {
    key: 'created',
    label: 'Joined',
    render: (u) => (
      <Box component="span" title={formatDateTime(u.created)} sx={{ whiteSpace: 'nowrap' }}>
        {formatDay(u.created)}
      </Box>
    ),
  },
];

export default function UsersPage() {
  const [search, setSearch] = useSearchParams();
  const q = search.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const navigate = useNavigate();
  const table = useTablePage<AdminUserRow>('/admin/users', { q: q || undefined });

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams(search);
    const term = typed.trim();
    if (term) next.set('q', term);
    else next.delete('q');
    setSearch(next, { replace: true });
  }

  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Users
      </Typography>
      <Box
        component="form"
        role="search"
        onSubmit={submit}
        sx={{ display: 'flex', gap: 1, mb: 2, maxWidth: 560 }}
      >
        <TextField
          size="small"
          label="Search users"
          placeholder="User id, or the start of an e-mail or handle"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { maxLength: 320, autoComplete: 'off' },
          }}
        />
        <Button type="submit" variant="contained">
          Search
        </Button>
      </Box>
      <PagedTable
        label="Users"
        columns={columns}
        table={table}
        rowKey={(u) => u.userId}
        empty={q ? `No user matches “${q}”.` : 'No users yet.'}
        onRowClick={(u) => navigate(`/admin/users/${u.userId}`)}
      />
    </Box>
  );
}
