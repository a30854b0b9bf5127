/**
 * Earnings by week as an SVG bar chart: a <title> on each bar for pointers, and the same
 * figures as a visually hidden table for screen readers (the SVG itself is decorative).
 */
import { formatCents } from '@bountyhunt/shared/payouts';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { visuallyHidden } from '../../../lib/visually-hidden';

const W = 600;
const H = 180;
const PAD_BOTTOM = 24;
const PAD_TOP = 18;

function shortDate(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export function WeeklyChart({ weeks }: { weeks: { weekStart: string; earnedCents: number }[] }) {
  const theme = useTheme();
  const max = Math.max(1, ...weeks.map((w) => w.earnedCents));
  const slot = W / Math.max(1, weeks.length);
  const barW = slot * 0.6;
  const plotH = H - PAD_BOTTOM - PAD_TOP;
  return (
    <Box>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        aria-hidden="true"
        sx={{ width: '100%', height: 'auto', display: 'block' }}
        data-testid="earnings-chart"
      >
        <line
          x1={0}
          x2={W}
          y1={H - PAD_BOTTOM}
          y2={H - PAD_BOTTOM}
          stroke={theme.palette.divider}
          strokeWidth={1}
        />
        {weeks.map((w, i) => {
          const h = (w.earnedCents / max) * plotH;
          const x = i * slot + (slot - barW) / 2;
          const y = H - PAD_BOTTOM - h;
          return (
            <g key={w.weekStart}>
              <rect
                x={x}
                y={y}
                width={barW}
                height={Math.max(h, w.earnedCents > 0 ? 2 : 0)}
                rx={3}
                fill={theme.palette.secondary.main}
              >
                <title>{`Week of ${shortDate(w.weekStart)}: ${formatCents(w.earnedCents)}`}</title>
              </rect>
              {w.earnedCents > 0 && (
                <text
                  x={x + barW / 2}
                  y={y - 4}
                  textAnchor="middle"
                  fontSize={11}
                  fill={theme.palette.text.secondary}
                >
                  {formatCents(w.earnedCents)}
                </text>
              )}
              {i % 2 === weeks.length % 2 && (
                <text
                  x={x + barW / 2}
                  y={H - 6}
                  textAnchor="middle"
                  fontSize={11}
                  fill={theme.palette.text.secondary}
                >
                  {shortDate(w.weekStart)}
                </text>
              )}
            </g>
          );
        })}
      </Box>
      <Box component="table" sx={visuallyHidden}>
        <caption>Earnings by week</caption>
        <thead>
          <tr>
            <th scope="col">Week of</th>
            <th scope="col">Earned</th>
          </tr>
        </thead>
        <tbody>
          {weeks.map((w) => (
            <tr key={w.weekStart}>
              <td>{shortDate(w.weekStart)}</td>
              <td>{formatCents(w.earnedCents)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
