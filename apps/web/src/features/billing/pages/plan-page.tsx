/** /signup/plan (SPEC.md §2, §4 Membership, §9): three plans, Deluxe preselected, then the handle step. */
import { API_MSG } from '@bountyhunt/shared/api';
import { DEFAULT_PLAN_INDEX, formatCents, PLANS } from '@bountyhunt/shared/billing';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { isActiveMember } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { useChoosePlan } from '../api/choose-plan';

export default function PlanPage() {
  const { user, update } = useSession();
  const navigate = useNavigate();
  const choose = useChoosePlan();
  const [selected, setSelected] = useState<number>(DEFAULT_PLAN_INDEX);
  const [error, setError] = useState<string | null>(null);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  // SPEC.md §4: a member whose membership is still running goes to /join.
  if (!user || isActiveMember(user)) return <Navigate to="/join" replace />;

  const next = async () => {
    setError(null);
    const res = await choose.mutateAsync({ planIndex: selected });
    if (res.status !== 200) {
      setError(API_MSG.formOther(res.status));
      return;
    }
    if (res.data) update({ user: res.data });
    navigate('/signup/handle/user');
  };

  // Radio group keyboard behaviour: arrows move the selection.
  const onKey = (e: KeyboardEvent, index: number) => {
    const delta =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? -1
          : 0;
    if (!delta) return;
    e.preventDefault();
    const to = (index + delta + PLANS.length) % PLANS.length;
    setSelected(to);
    refs.current[to]?.focus();
  };

  return (
    <Box sx={{ maxWidth: 980, mx: 'auto', px: 2, py: { xs: 3, sm: 5 } }}>
      <Typography
        variant="overline"
        component="p"
        color="secondary"
        sx={{ fontWeight: 700, letterSpacing: 1.2 }}
        data-testid="step"
      >
        Step 2 of 4
      </Typography>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Choose Your Plan
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Silver tokens let you vote on claims and fund bounties. Change your plan at any time; a
        change takes effect at your next renewal.
      </Typography>
      <Box
        role="radiogroup"
        aria-label="Membership plans"
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' },
        }}
      >
        {PLANS.map((plan, i) => {
          const on = selected === i;
          return (
            <ButtonBase
              key={plan.name}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="radio"
              aria-checked={on}
              tabIndex={on ? 0 : -1}
              onClick={() => setSelected(i)}
              onKeyDown={(e) => onKey(e, i)}
              data-testid={`plan-${i}`}
              sx={{
                display: 'block',
                textAlign: 'left',
                borderRadius: 2.5,
                p: 2.5,
                bgcolor: 'background.paper',
                border: '2px solid',
                borderColor: on ? 'primary.main' : 'rgba(255,255,255,0.12)',
                boxShadow: on ? '0 0 0 3px rgba(216,62,134,0.25)' : 'none',
                transition: 'border-color 120ms, box-shadow 120ms',
                '&:hover': { borderColor: on ? 'primary.main' : 'rgba(255,255,255,0.3)' },
                '&.Mui-focusVisible': { outline: '2px solid #ffc947', outlineOffset: 2 },
              }}
            >
              <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography variant="h3" component="span">
                  {plan.name}
                </Typography>
                {on ? (
                  <CheckCircleIcon color="primary" aria-hidden="true" />
                ) : (
                  <RadioButtonUncheckedIcon sx={{ color: 'text.secondary' }} aria-hidden="true" />
                )}
              </Box>
              <Typography component="p" sx={{ mt: 1.5 }}>
                <Box component="span" sx={{ fontSize: '2rem', fontWeight: 800 }}>
                  {formatCents(plan.priceCents)}
                </Box>
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {' '}
                  / month
                </Box>
              </Typography>
              <Box
                component="ul"
                sx={{ m: 0, mt: 1.5, pl: 2.5, fontSize: '0.95rem', '& li': { mb: 0.5 } }}
              >
                <li>{plan.resolution}</li>
                <li>
                  <strong>{plan.silver}</strong> silver tokens a month
                </li>
                <li>
                  <strong>{plan.gold.toLocaleString('en-US')}</strong> gold tokens
                </li>
              </Box>
            </ButtonBase>
          );
        })}
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 3 }}>
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button
          variant="contained"
          size="large"
          onClick={next}
          disabled={choose.isPending}
          startIcon={choose.isPending ? <CircularProgress size={18} color="inherit" /> : null}
          sx={{ minWidth: { xs: '100%', sm: 200 } }}
        >
          Next
        </Button>
      </Box>
    </Box>
  );
}
