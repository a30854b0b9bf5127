/**
 * "Report" for a claim, post, hunter profile or bounty (issue 17 part 5): a small button for
 * signed-in users other than the item's owner. The dialog (form, select) loads when first
 * opened, so pages do not carry it.
 */
import type { ReportTarget } from '@bountyhunt/shared/moderation';
import FlagOutlinedIcon from '@mui/icons-material/FlagOutlined';
import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '../../lib/session';

const ReportDialog = lazy(() => import('./report-dialog'));

export function ReportButton({
  targetType,
  targetId,
  ownerId,
  label = 'Report',
}: {
  targetType: ReportTarget;
  targetId: number;
  /** The owner's user id: owners do not report their own items. */
  ownerId?: number | null;
  label?: string;
}) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  if (!user || (ownerId != null && ownerId === user.userId)) return null;
  return (
    <>
      <Button
        size="small"
        color="inherit"
        startIcon={<FlagOutlinedIcon fontSize="small" />}
        onClick={() => setOpen(true)}
        sx={{ color: 'text.secondary' }}
        data-testid={`report-${targetType}`}
        aria-label={`${label} this ${targetType === 'hunter' ? 'profile' : targetType}`}
      >
        {label}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog
            targetType={targetType}
            targetId={targetId}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
