/** /admin/identities: the identity review queue, pending submissions oldest first. */
import type { IdentityQueueItem } from '@bountyhunt/shared/identity';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { useTablePage } from '../api/use-table-page';
import { AgeChip, fullName } from '../components/identity-bits';
import { PagedTable, timeColumn, type Column } from '../components/paged-table';

const columns: Column<IdentityQueueItem>[] = [
  timeColumn('submitted', 'Submitted', (i) => i.submitted),
  {
    key: 'user',
    label: 'User',
    render: (i) => (
      <>
        <Typography variant="body2">{i.email}</Typography>
        <Typography variant="body2" color="text.secondary">
          #{i.userId}
          {i.handle ? ` · @${i.handle}` : ''}
        </Typography>
      </>
    ),
  },
  { key: 'name', label: 'Legal name', render: (i) => fullName(i) },
  { key: 'age', label: 'Age', width: 150, render: (i) => <AgeChip attested={i.ageAttested} /> },
];

export default function IdentitiesPage() {
  const navigate = useNavigate();
  const table = useTablePage<IdentityQueueItem>('/admin/identities', {});
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Identity review
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Pending submissions, oldest first. Open one to see the ID photo and the selfie.
      </Typography>
      <PagedTable
        label="Identity review queue"
        columns={columns}
        table={table}
        rowKey={(i) => i.submissionId}
        empty="No submissions are waiting for review."
        onRowClick={(i) => navigate(`/admin/identities/${i.submissionId}`)}
      />
    </Box>
  );
}
