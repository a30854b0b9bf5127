/**
 * /admin/reports: open reports grouped by item (oldest first, or most reported), a preview of
 * each item, the reports of the selected one, and Hide / Keep. Hiding takes the item out of
 * every listing but its owner's and admins'; both close the item's open reports.
 */
import {
  REPORT_REASON_LABELS,
  REPORT_TARGETS,
  type Report,
  type ReportGroup,
  type ReportTarget,
} from '@bountyhunt/shared/moderation';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { mediaUrl } from '../../../components/media/media-url';
import { useFeedback } from '../../../lib/feedback';
import { useDecideReport } from '../api/decide-report';
import { useTablePage } from '../api/use-table-page';
import { formatDateTime } from '../components/format';
import { PagedTable, timeColumn, type Column } from '../components/paged-table';

const TYPE_LABEL: Record<ReportTarget, string> = {
  claim: 'Claim',
  post: 'Post',
  hunter: 'Profile',
  bounty: 'Bounty',
  message: 'Message',
};

/** Where the item is seen on the site (admins see hidden items too). */
function itemLink(g: ReportGroup): string | null {
  switch (g.targetType) {
    case 'claim':
      return `/claim/${g.targetId}`;
    case 'bounty':
      return `/bounty/${g.targetId}`;
    case 'hunter':
    case 'post':
      return g.item?.handle ? `/profile/${g.item.handle}` : null;
    case 'message':
      // Direct messages have no public page: the preview shows the text and image.
      return null;
  }
}

function Preview({ g }: { g: ReportGroup }) {
  const item = g.item;
  const to = itemLink(g);
  const title = item?.title || (item ? `${TYPE_LABEL[g.targetType]} ${g.targetId}` : 'Deleted');
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Avatar
        variant={g.targetType === 'hunter' ? 'circular' : 'rounded'}
        src={item?.media ? mediaUrl(item.media, 'thumb') : undefined}
        alt=""
        sx={{ width: 48, height: 48, bgcolor: 'rgba(255,255,255,0.08)' }}
      >
        {' '}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography
          variant="body2"
          sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 260 }}
          noWrap
        >
          {to ? (
            <Link
              component={RouterLink}
              to={to}
              color="inherit"
              onClick={(e) => e.stopPropagation()}
            >
              {title}
            </Link>
          ) : (
            title
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {TYPE_LABEL[g.targetType]} #{g.targetId}
          {item?.handle ? ` · @${item.handle}` : ''}
        </Typography>
      </Box>
      {item?.hidden && (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label="Hidden"
          icon={<VisibilityOffIcon />}
        />
      )}
    </Stack>
  );
}

function Decide({
  g,
  onDone,
  compact = false,
}: {
  g: ReportGroup;
  onDone?: () => void;
  /** In the queue's rows: no icons, so the table fits a laptop screen. */
  compact?: boolean;
}) {
  const decide = useDecideReport();
  const { notify } = useFeedback();
  const run = async (decision: 'hide' | 'keep') => {
    const res = await decide.mutateAsync({
      targetType: g.targetType,
      targetId: g.targetId,
      decision,
    });
    if (res.status !== 200) return notify(res.message || `Error ${res.status}`, 'error');
    notify(
      decision === 'hide'
        ? `${TYPE_LABEL[g.targetType]} hidden; ${res.data.closed} report(s) closed.`
        : `${TYPE_LABEL[g.targetType]} kept; ${res.data.closed} report(s) closed.`,
      'success',
    );
    onDone?.();
  };
  return (
    <Stack direction="row" spacing={1} onClick={(e) => e.stopPropagation()}>
      <Button
        size="small"
        variant="contained"
        color="error"
        startIcon={compact ? undefined : <VisibilityOffIcon />}
        disabled={decide.isPending}
        onClick={() => void run('hide')}
        data-testid={`hide-${g.targetType}-${g.targetId}`}
      >
        Hide
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        startIcon={compact ? undefined : <VisibilityIcon />}
        disabled={decide.isPending}
        onClick={() => void run('keep')}
        data-testid={`keep-${g.targetType}-${g.targetId}`}
      >
        Keep
      </Button>
    </Stack>
  );
}

const reportColumns: Column<Report>[] = [
  timeColumn('time', 'Reported', (r) => r.created),
  { key: 'reporter', label: 'By', render: (r) => r.reporterEmail ?? `#${r.reporterId}` },
  { key: 'reason', label: 'Reason', render: (r) => REPORT_REASON_LABELS[r.reason] },
  {
    key: 'text',
    label: 'Details',
    render: (r) => (
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {r.text ?? '—'}
      </Typography>
    ),
  },
];

function ItemReports({ g, onClose }: { g: ReportGroup; onClose: () => void }) {
  const table = useTablePage<Report>(`/admin/reports/${g.targetType}/${g.targetId}`, {});
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 3 }} data-testid="item-reports">
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 2 }}
      >
        <Preview g={g} />
        <Stack direction="row" spacing={1}>
          <Decide g={g} onDone={onClose} />
          <Button size="small" color="inherit" onClick={onClose}>
            Close
          </Button>
        </Stack>
      </Stack>
      <PagedTable
        label={`Reports of ${TYPE_LABEL[g.targetType].toLowerCase()} ${g.targetId}`}
        columns={reportColumns}
        table={table}
        rowKey={(r) => r.reportId}
        empty="No open reports."
      />
    </Paper>
  );
}

export default function ReportsPage() {
  const [search, setSearch] = useSearchParams();
  const filters = {
    sort: search.get('sort') ?? undefined,
    targetType: search.get('targetType') ?? undefined,
  };
  const table = useTablePage<ReportGroup>('/admin/reports', filters);
  const selected = search.get('item');
  const group = table.rows.find((g) => `${g.targetType}-${g.targetId}` === selected);
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };

  const columns: Column<ReportGroup>[] = [
    { key: 'item', label: 'Item', render: (g) => <Preview g={g} /> },
    {
      key: 'count',
      label: 'Reports',
      render: (g) => (
        <Typography sx={{ fontWeight: 700 }} data-testid="report-count">
          {g.count}
        </Typography>
      ),
    },
    {
      key: 'reasons',
      label: 'Reasons',
      render: (g) => (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          {g.reasons.map((r) => (
            <Chip key={r} size="small" label={REPORT_REASON_LABELS[r]} />
          ))}
        </Box>
      ),
    },
    {
      key: 'first',
      label: 'First reported',
      render: (g) => formatDateTime(g.firstReported),
    },
    { key: 'actions', label: 'Decision', width: 1, render: (g) => <Decide g={g} compact /> },
  ];

  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Reports
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label="Order"
          value={filters.sort ?? 'oldest'}
          onChange={(e) => setParam('sort', e.target.value === 'oldest' ? '' : e.target.value)}
          sx={{ width: 200 }}
        >
          <MenuItem value="oldest">Oldest first</MenuItem>
          <MenuItem value="most">Most reported</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Type"
          value={filters.targetType ?? ''}
          onChange={(e) => setParam('targetType', e.target.value)}
          sx={{ width: 180 }}
        >
          <MenuItem value="">All items</MenuItem>
          {REPORT_TARGETS.map((t) => (
            <MenuItem key={t} value={t}>
              {TYPE_LABEL[t]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <PagedTable
        label="Reported items"
        columns={columns}
        table={table}
        rowKey={(g) => `${g.targetType}-${g.targetId}`}
        empty="No open reports. All clear."
        onRowClick={(g) => setParam('item', `${g.targetType}-${g.targetId}`)}
      />
      {group && <ItemReports g={group} onClose={() => setParam('item', '')} />}
    </Box>
  );
}
